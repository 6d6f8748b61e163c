/** Journeys with `feedback`: a visitor rates a reply; the site hears it, the session is tagged, every tab and reload shows it. */
import { expect, waitUntil } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { AgentChatFeedbackDetail } from '../../src/events.js';
import { echoAgent, ok, text } from '../support/fake-proxy.js';
import { mount, part, parts, shownText, useFakeProxies, WAIT, waitForBubbles, waitForRequests } from '../support/widget.js';
import { down, submit } from './support.js';

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
    expect(parts(chat, 'feedback-button').map((b) => b.getAttribute('aria-pressed')), 'toggles, neither pressed').to.deep.equal(['false', 'false']);
    const heard: AgentChatFeedbackDetail[] = [];
    chat.addEventListener('agent-chat-feedback', (e) => heard.push({ ...e.detail }));
    part(chat, 'feedback-button--up')!.click();
    await chat.updateComplete;
    expect(heard).to.have.length(1);
    expect(heard[0]).to.include({ rating: 'up', tag: 'feedback-up' });
    expect(heard[0].responseId, 'the reply\'s id as the agent sent it').to.be.a('string').and.not.equal('');
    expect(thumbs(chat)).to.deep.equal(['feedback-button--up:rated']);
    expect(part(chat, 'feedback-button--up')!.getAttribute('aria-pressed')).to.equal('true');
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

  it('a rating tags the session of its conversation only: a new conversation\'s greeting and messages never carry it, nor, once that greeting is answered, an Undo\'s', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(chat, 1);
    part(chat, 'feedback-button--down')!.click();
    // The visitor starts over before asking anything more: the agent opens a new session for the
    // greeting, and a tag it carried would rate that session, where nothing was rated.
    part(chat, 'restart-button')!.click();
    await waitForBubbles(chat, 1, 'the new greeting');
    let bodies = await waitForRequests(p, 2);
    expect(bodies[1].message.payload, 'the new greeting').to.deep.include({ data: 'greeting' });
    expect(bodies[1].tagOperations, 'the rating stays with its conversation').to.equal(undefined);
    await submit(chat, 'in the new conversation');
    bodies = await waitForRequests(p, 3);
    expect(bodies[2].tagOperations, 'nor does the next message of the new one carry it').to.equal(undefined);
    await waitForBubbles(chat, 3);

    // Rated, then a new conversation (its greeting answered: the agent's session is another), then
    // Undo: the conversation rated shows again, but its session at the agent is gone.
    parts(chat, 'feedback-button--up').at(-1)!.click();
    part(chat, 'restart-button')!.click();
    await waitForBubbles(chat, 1, 'the third greeting');
    part(chat, 'undo-button')!.click();
    await waitForBubbles(chat, 3, 'the second conversation back');
    await submit(chat, 'back in the second conversation');
    bodies = await waitForRequests(p, 5);
    expect(bodies[3].tagOperations, 'the third greeting').to.equal(undefined);
    expect(bodies[4].tagOperations, 'its rating would tag the third conversation\'s session').to.equal(undefined);
  });

  it('a reply of a session past, rated after the Undo, tags nothing: the agent\'s session is the new greeting\'s, answered before the Undo', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(chat, 1);
    await submit(chat, 'first');
    await waitForBubbles(chat, 3);
    part(chat, 'restart-button')!.click();
    await waitForBubbles(chat, 1, 'the new greeting');
    part(chat, 'undo-button')!.click();
    await waitForBubbles(chat, 3, 'the first conversation back');
    // The agent now holds the new greeting's session: a tag for "first"'s answer would rate it.
    // (Taken back before its answer came, the greeting is called off: the page cannot know whether
    // the agent had it, and a rating then tags the session as before: README "Feedback".)
    const heard: AgentChatFeedbackDetail[] = [];
    chat.addEventListener('agent-chat-feedback', (event) => heard.push(event.detail));
    parts(chat, 'feedback-button--up').at(-1)!.click();
    expect(heard.map((detail) => detail.rating), 'the site hears the rating').to.deep.equal(['up']);
    await waitUntil(() => thumbs(chat).at(-1) === 'feedback-button--up:rated', 'shown rated', WAIT);
    await submit(chat, 'after the Undo');
    const bodies = await waitForRequests(p, 4);
    expect(bodies[3].message.text).to.equal('after the Undo');
    expect(bodies[3].tagOperations, 'no tag for a reply of a session past').to.equal(undefined);
    // A reply of the session the agent holds now is rated as any.
    await waitForBubbles(chat, 5);
    parts(chat, 'feedback-button--down').at(-1)!.click();
    await submit(chat, 'and then');
    expect((await waitForRequests(p, 5))[4].tagOperations, 'its tag goes').to.deep.equal({ add: ['feedback-down'] });
  });

  it('a new conversation while the agent is down, taken back with Undo before its greeting got through: the rating goes with the next message', async () => {
    const p = proxy();
    const { chat } = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(chat, 1);
    part(chat, 'feedback-button--down')!.click();
    p.handle(() => down);
    part(chat, 'restart-button')!.click();
    await waitForRequests(p, 2);
    await waitUntil(() => part(chat, 'error') !== null, 'the new greeting failed', WAIT);
    part(chat, 'undo-button')!.click();
    await waitForBubbles(chat, 1, 'the first conversation back');
    p.handle(echoAgent);
    await submit(chat, 'the agent is back');
    await waitForBubbles(chat, 3);
    const bodies = p.bodies.filter((b) => b.message.text === 'the agent is back');
    expect(bodies.map((b) => b.tagOperations), 'its session never changed').to.deep.equal([{ add: ['feedback-down'] }]);
    const tries = p.bodies.slice(1, -1);
    expect(tries.map((b) => b.message.payload?.data), 'the new greeting\'s tries, none through').to.include('greeting');
    expect(tries.map((b) => b.tagOperations), 'the greeting that did not get through carried none').to.satisfy((all: unknown[]) => all.every((t) => t === undefined));
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

  it('the same reply rated both ways at once in two tabs (neither had heard of the other\'s): both tabs and storage end with one rating', async () => {
    const p = proxy();
    const a = await mount(p, { open: true, attrs: { feedback: '' } });
    await waitForBubbles(a.chat, 1);
    const b = await mount(p, { mode: 'inline', attrs: { feedback: '' } });
    await waitForBubbles(b.chat, 1);
    // In one task: B's write is made on top of A's, not yet heard of (its rating made again there, last).
    part(a.chat, 'feedback-button--up')!.click();
    part(b.chat, 'feedback-button--down')!.click();
    const shown = (chat: AgentChat) => thumbs(chat).join();
    const stored = () => Object.values(localStorage).join().match(/"rating":"\w+"/g)?.join() ?? 'none';
    const agreed = () => shown(a.chat) === shown(b.chat) && stored() === `"rating":"${shown(a.chat).match(/--(up|down):rated$/)?.[1]}"`;
    await waitUntil(agreed, 'both tabs show the one rating storage keeps', WAIT).catch((e) => {
      throw new Error(`${e.message}: A ${shown(a.chat)}, B ${shown(b.chat)}, stored ${stored()}`);
    });
  });
});
