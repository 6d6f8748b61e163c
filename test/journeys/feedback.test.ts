/** Journeys with `feedback`: a visitor rates a reply; the site hears it, the session is tagged, every tab and reload shows it. */
import { expect, waitUntil } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { AgentChatFeedbackDetail } from '../../src/events.js';
import { ok, text } from '../support/fake-proxy.js';
import { mount, part, parts, shownText, useFakeProxies, WAIT, waitForBubbles, waitForRequests } from '../support/widget.js';
import { submit } from './support.js';

const thumbs = (chat: AgentChat) => parts(chat, 'feedback-button').map((b) => `${b.getAttribute('part')!.split(' ')[1]}${(b as HTMLButtonElement).disabled ? ':rated' : ''}`);

describe('journeys: feedback', () => {
  const proxy = useFakeProxies();

  it('is off unless asked for', async () => {
    const { chat } = await mount(proxy(), { open: true });
    await waitForBubbles(chat, 1);
    expect(parts(chat, 'feedback')).to.have.length(0);
  });

  it('a thumb up: the event with the response id, thanks in place of the thumbs, the tag on the next request, kept after a reload', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(chat, 1);
    expect(thumbs(chat)).to.deep.equal(['feedback-button--up', 'feedback-button--down']);
    const heard: AgentChatFeedbackDetail[] = [];
    chat.addEventListener('agent-chat-feedback', (e) => heard.push({ ...e.detail }));
    part(chat, 'feedback-button--up')!.click();
    await chat.updateComplete;
    expect(heard).to.have.length(1);
    expect(heard[0]).to.include({ rating: 'up', tag: 'feedback-up' });
    expect(heard[0].responseId, 'the reply\'s id as the agent sent it').to.be.a('string').and.not.equal('');
    expect(thumbs(chat)).to.deep.equal(['feedback-button--up:rated']);
    expect(shownText(chat, 'feedback')).to.equal('Thanks for your feedback.');
    part(chat, 'feedback-button--up')!.click(); // rated already: nothing more
    expect(heard).to.have.length(1);
    await submit(chat, 'next question');
    const bodies = await waitForRequests(p, 2);
    expect(bodies[1].tagOperations).to.deep.equal({ add: ['feedback-up'] });
    await waitForBubbles(chat, 3);
    chat.remove();
    const again = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(again.chat, 3);
    expect(thumbs(again.chat).slice(0, 1), 'the rating survives a reload').to.deep.equal(['feedback-button--up:rated']);
  });

  it('the tag waits for the next request across a reload, and goes once, from whichever tab sends next', async () => {
    const p = proxy();
    const first = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(first.chat, 1);
    part(first.chat, 'feedback-button--up')!.click();
    first.chat.remove(); // the visitor reloads before asking anything more
    const a = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(a.chat, 1);
    const b = await mount(p, { mode: 'inline', attrs: { feedback: '' } });
    await waitForBubbles(b.chat, 1);
    await submit(b.chat, 'asked in the other tab');
    await waitForBubbles(a.chat, 3);
    await submit(a.chat, 'and then here');
    const bodies = await waitForRequests(p, 3);
    expect(bodies.map((body) => body.tagOperations)).to.deep.equal([undefined, { add: ['feedback-up'] }, undefined]);
  });

  it('a listener picks the tag, or cancels it', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(chat, 1);
    chat.addEventListener('agent-chat-feedback', (e) => (e.detail.tag = 'answer-was-wrong'), { once: true });
    part(chat, 'feedback-button--down')!.click();
    await submit(chat, 'second');
    await waitForBubbles(chat, 3);
    chat.addEventListener('agent-chat-feedback', (e) => e.preventDefault(), { once: true });
    parts(chat, 'feedback-button--down').at(-1)!.click();
    await submit(chat, 'third');
    const bodies = await waitForRequests(p, 3);
    expect(bodies[1].tagOperations).to.deep.equal({ add: ['answer-was-wrong'] });
    expect(bodies[2].tagOperations, 'cancelled: no tag').to.equal(undefined);
  });

  it('rates the answers, not the prompts: a choices reply and a carousel get no thumbs', async () => {
    const p = proxy();
    p.next(ok(text('Here is what I found.'), { type: 'buttons', text: 'More?', altText: 'More?', buttons: [{ title: 'Yes' }] }));
    const { chat } = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(chat, 2);
    expect(parts(chat, 'feedback')).to.have.length(1);
    expect(parts(chat, 'message--agent')[0].querySelector('[part~="feedback"]'), 'under the text reply').to.not.equal(null);
  });

  it('a rating in one tab shows in the other', async () => {
    const p = proxy();
    const a = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(a.chat, 1);
    const b = await mount(p, { mode: 'inline', attrs: { feedback: '' } });
    await waitForBubbles(b.chat, 1);
    part(a.chat, 'feedback-button--down')!.click();
    await waitUntil(() => thumbs(b.chat).join() === 'feedback-button--down:rated', 'tab B shows the rating', WAIT);
  });
});
