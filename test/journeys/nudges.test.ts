/**
 * What the closed launcher says: a preview of a reply that arrived while the panel was closed, and
 * the site's teaser, once per visitor and never while they type elsewhere on the page.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AgentChat } from '../../src/agent-chat.js';
import { TEASER_SEEN_KEY } from '../../src/controllers/nudge-controller.js';
import { ok, text, type FakeProxy } from '../support/fake-proxy.js';
import { bubbles, mount, part, shownText, useFakeProxies, WAIT, waitForBubbles } from '../support/widget.js';
import { afterIdle, clickLauncher, lookAway, lookBack, noticeAheadOfWrite, submit } from './support.js';

const announced = (chat: AgentChat) => chat.shadowRoot!.querySelector('[role="status"]')!.textContent;

/** A visitor greeted, who then closed the panel. */
async function greetedThenClosed(p: FakeProxy) {
  const { chat } = await mount(p, { open: true });
  await waitForBubbles(chat, 1);
  chat.hide();
  await chat.updateComplete;
  return chat;
}

/** Sends `question` (as the page can while the panel is closed); `reply` comes back and shows beside the launcher. */
async function replyWhileClosed(chat: AgentChat, p: FakeProxy, question: string, reply: string, what = 'preview shown') {
  p.next(ok(text(reply)));
  chat.send(question);
  await waitUntil(() => part(chat, 'preview'), what, WAIT);
}


/** Once the shell's timer for a teaser due at once (`teaser-delay="0"`, set as the element connected) has run. */
const afterTheShellsTimer = () => new Promise((resolve) => setTimeout(resolve));

/**
 * A page with a teaser due at once: once its time has come, the shell has not loaded the rest of
 * the widget for it (updateComplete waits for a load the shell started), and no teaser shows.
 */
async function expectNothingLoadedForTheTeaser(p: FakeProxy) {
  const { chat } = await mount(p, { attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': '0' } });
  await afterTheShellsTimer();
  await chat.updateComplete;
  expect(!!chat.shadowRoot!.querySelector('.messages'), 'the rest of the widget loaded').to.equal(false);
  expect(shownText(chat, 'teaser')).to.equal(null);
  chat.remove();
}

describe('journeys: the launcher\'s nudges', () => {
  const proxy = useFakeProxies();
  afterEach(() => localStorage.removeItem(TEASER_SEEN_KEY));

  it('a reply the visitor reads in one tab is no news in another in the background (no badge, no preview); a tab in view tells of a reply another tab got', async () => {
    const hidden = lookAway;
    const p = proxy();
    const a = await mount(p, { open: true }); // the tab the visitor chats in
    await waitForBubbles(a.chat, 1);
    const b = await mount(p, { attrs: { load: 'eager' } }); // another page of the site, its panel closed
    await waitForBubbles(b.chat, 1);
    try {
      hidden(true); // (both share this document: what tab B sees) tab B is in the background
      await submit(a.chat, 'When do you open?');
      await waitForBubbles(b.chat, 3, 'tab B has the reply');
      await b.chat.updateComplete;
      expect(shownText(b.chat, 'badge'), 'read in tab A').to.equal(null);
      expect(shownText(b.chat, 'preview'), 'read in tab A').to.equal(null);
      // Tab B's own reply, while it is in the background (the visitor went to another site while
      // waiting): it tells of it, for when they come back.
      p.next(ok(text('Yes, on Saturdays too.')));
      b.chat.send('Are you open on Saturdays?');
      await waitUntil(() => part(b.chat, 'badge'), 'tab B tells of its own reply', WAIT);
      expect(shownText(b.chat, 'preview')).to.equal('Yes, on Saturdays too.');
      b.chat.show(); // read
      await b.chat.updateComplete;
      b.chat.hide();
      await b.chat.updateComplete;
      hidden(false); // the visitor looks at tab B; tab A gets a reply
      // (Its panel closed: both tabs share this document, which is in view, and an open panel in
      // view is read there. A panel open in a tab in the background: test/e2e/tabs.spec.ts.)
      a.chat.hide();
      await a.chat.updateComplete;
      p.next(ok(text('We open at nine.')));
      a.chat.send('And on Sundays?');
      await waitUntil(() => part(b.chat, 'preview'), 'tab B tells of it', WAIT);
      expect(shownText(b.chat, 'badge')).to.equal('1');
      expect(shownText(b.chat, 'preview')).to.equal('We open at nine.');
    } finally {
      lookBack();
    }
  });

  it('a reply told of beside the launchers of two tabs goes from both once the visitor reads it in one of them', async () => {
    const p = proxy();
    const a = await greetedThenClosed(p);
    const b = await mount(p, { attrs: { load: 'eager' } }); // another page of the site, in view, its panel closed
    await waitForBubbles(b.chat, 1);
    await replyWhileClosed(a, p, 'When do you open?', 'We open at nine.');
    await waitUntil(() => part(b.chat, 'preview'), 'tab B tells of it too', WAIT);
    expect(shownText(b.chat, 'badge')).to.equal('1');
    a.show(); // read in tab A
    await a.updateComplete;
    await waitUntil(() => !part(b.chat, 'preview') && !part(b.chat, 'badge'), 'tab B no longer tells of it', WAIT);
    // A later reply, read at once in tab A (open): no news in tab B once both know.
    p.next(ok(text('And at ten on Sundays.')));
    a.send('And on Sundays?');
    await waitForBubbles(b.chat, 5, 'tab B has it');
    await waitUntil(() => !part(b.chat, 'preview') && !part(b.chat, 'badge'), 'read in tab A', WAIT);
    // The notice that it was read can come before the reply itself (another tab read it at once, and
    // this one's page was busy): that reply is then no news here when it comes.
    a.hide();
    await a.updateComplete;
    const later = Date.now() + 60_000;
    localStorage.setItem(`agent-chat:${p.url}:read`, JSON.stringify({ v: 1, data: later }));
    const channel = new BroadcastChannel(`agent-chat:${p.url}`);
    try {
      channel.postMessage(3);
      p.next(ok(text('Closed on holidays.')));
      a.send('And on holidays?');
      await waitForBubbles(b.chat, 7, 'tab B has it');
      await b.chat.updateComplete;
      expect(part(b.chat, 'badge'), 'read already').to.equal(null);
      expect(announced(b.chat), 'nor announced').not.to.contain('holidays');
    } finally {
      channel.close();
    }
  });

  it('a reply told of beside the launcher goes once the visitor reads it in another tab, also when the notice that it was read overtakes the storage write', async () => {
    const p = proxy();
    const chat = await greetedThenClosed(p);
    await replyWhileClosed(chat, p, 'When do you open?', 'We open at nine.');
    // Another tab (a real one) shows it: its "read" notice arrives first, its write visible here
    // only afterwards. (The reply came before now.)
    await noticeAheadOfWrite(p.url, 3, 'read', {
      meanwhile: async () => {
        await chat.updateComplete;
        expect(shownText(chat, 'badge'), 'the notice alone found nothing new').to.equal('1');
      },
      data: Date.now(),
      until: () => !part(chat, 'preview') && !part(chat, 'badge'),
      what: 'the storage event said it was read',
    });
  });

  it('a reply that arrives while closed: its first line beside the launcher, announced; dismissed, it goes until the next one; opening clears it', async () => {
    const p = proxy();
    const chat = await greetedThenClosed(p);
    await replyWhileClosed(chat, p, 'where is my order?', 'Your order shipped today.\nTracking: 123');
    expect(shownText(chat, 'preview')).to.equal('Your order shipped today.');
    expect(announced(chat)).to.equal('New message: Your order shipped today.');
    part(chat, 'dismiss-button')!.click();
    await chat.updateComplete;
    expect(shownText(chat, 'preview'), 'dismissed').to.equal(null);
    await replyWhileClosed(chat, p, 'thanks', 'Anything else?', 'the next reply shows again');
    expect(shownText(chat, 'preview')).to.equal('Anything else?');
    chat.shadowRoot!.querySelector<HTMLButtonElement>('.nudge-text')!.click();
    await chat.updateComplete;
    expect(chat.open, 'a click on it opens the chat').to.equal(true);
    expect(shownText(chat, 'preview')).to.equal(null);
  });

  it('a long reply shows as two whole lines beside the launcher, no part of a third', async () => {
    const p = proxy();
    const chat = await greetedThenClosed(p);
    await replyWhileClosed(chat, p, 'where is my order?', 'Your order #4521 has shipped: it arrives on Thursday, between 9:00 and 12:00, at the address you gave us when you ordered.');
    const button = part(chat, 'preview')!.querySelector('button')!;
    await waitUntil(() => button.getBoundingClientRect().height > 0, 'laid out', WAIT);
    // Where the text can show: the padding boxes of the elements that clip it, from its own up to
    // the button. Before, the button clipped at its padding box and the text's third line showed
    // in the bottom padding, cut in half.
    const text = button.querySelector('*') ?? button;
    const box = button.getBoundingClientRect();
    const clip = { top: -Infinity, bottom: Infinity };
    for (let el: Element | null = text; el && button.contains(el); el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowY === 'visible') continue;
      const r = el.getBoundingClientRect();
      clip.top = Math.max(clip.top, r.top + parseFloat(style.borderTopWidth));
      clip.bottom = Math.min(clip.bottom, r.bottom - parseFloat(style.borderBottomWidth));
    }
    const range = document.createRange();
    range.selectNodeContents(text);
    const lines = [...new Map([...range.getClientRects()].filter((r) => r.height > 0).map((r) => [Math.round(r.top), r])).values()];
    const shown = lines.filter((r) => r.top < clip.bottom && r.bottom > clip.top);
    const cut = shown.filter((r) => r.bottom > clip.bottom + 0.5 || r.top < clip.top - 0.5);
    expect(cut.map((r) => `line at ${Math.round(r.top - box.top)} to ${Math.round(r.bottom - box.top)} px of a ${Math.round(clip.bottom - box.top)} px clip`), 'no line cut by the edge').to.deep.equal([]);
    expect(shown.length, 'two lines shown').to.equal(2);
  });

  it('the badge counts every reply that came while the panel was closed, one turn after another; it keeps its count when another tab adds to the conversation or the site moves the chat in the page, and a launcher drawn anew shows one icon', async () => {
    const p = proxy();
    const chat = await greetedThenClosed(p);
    await replyWhileClosed(chat, p, 'my balance?', 'Your balance is 1,234 EUR.');
    expect(shownText(chat, 'badge')).to.equal('1');
    p.next(ok(text('It was updated today.')));
    chat.send('since when?');
    await waitUntil(() => shownText(chat, 'preview')?.includes('updated today'), 'the second reply told of', WAIT);
    expect(shownText(chat, 'badge'), 'two replies, in two turns').to.equal('2');

    // Another tab of the site, in the background, whose page sends for the visitor (its answer held):
    // the conversation changes here, its newest reply still unseen.
    const other = await mount(p);
    const held = p.hold();
    other.chat.send('and the fees?');
    await waitUntil(() => bubbles(chat).includes('and the fees?'), 'the other tab\'s message shown here', WAIT);
    await chat.updateComplete;
    expect([shownText(chat, 'badge'), !!part(chat, 'preview')], 'still two replies unseen, the preview with them').to.deep.equal(['2', true]);

    // A framework moving the chat in the page (a portal, a layout drawn anew): out of it and back.
    const parent = chat.parentElement!;
    chat.remove();
    parent.append(chat);
    await chat.updateComplete;
    expect(shownText(chat, 'badge'), 'the same two, not counted again').to.equal('2');

    // Made inline by the site and a launcher again: the launcher is drawn anew, with one icon.
    chat.mode = 'inline';
    await chat.updateComplete;
    chat.mode = 'launcher';
    await chat.updateComplete;
    expect(part(chat, 'launcher')!.querySelectorAll('svg').length, 'one icon in the launcher').to.equal(1);
    held.release();
    other.chat.remove();
  });

  it('a reply told of beside the closed launcher goes with its conversation: the site\'s restart() (a visitor logging out) or a new conversation in another tab leaves no badge or preview of it', async () => {
    const p = proxy();
    const chat = await greetedThenClosed(p);
    await replyWhileClosed(chat, p, 'my balance?', 'Your balance is 1,234 EUR.');
    expect(shownText(chat, 'badge')).to.equal('1');
    // The site clears the conversation as the visitor logs out: nothing of it stays on screen for
    // whoever uses the page next, the launcher's news included.
    chat.restart();
    await chat.updateComplete;
    expect(shownText(chat, 'preview'), 'the preview of a reply no longer in the chat').to.equal(null);
    expect(shownText(chat, 'badge'), 'no count of it').to.equal(null);
    expect(announced(chat), 'nothing of it announced').not.to.contain('1,234');

    // Again, with the new conversation begun in another tab, where the visitor is (this one in the
    // background: the new greeting's reply is read there, no news here).
    await replyWhileClosed(chat, p, 'where is my order?', 'Your order shipped today.');
    const other = await mount(p, { open: true });
    await waitForBubbles(other.chat, 2, 'the other tab shows the conversation');
    lookAway(true);
    try {
      part(other.chat, 'restart-button')!.click();
      await waitUntil(() => JSON.stringify(bubbles(chat)) === JSON.stringify(bubbles(other.chat)) && bubbles(chat).length === 1, 'this tab shows the new conversation, greeted in the other', WAIT);
      await chat.updateComplete;
      expect(shownText(chat, 'preview'), 'the preview goes with the conversation put away').to.equal(null);
      expect(shownText(chat, 'badge')).to.equal(null);
    } finally {
      lookBack();
    }
  });

  it('a page whose chat has not loaded tells of a reply another tab got meanwhile once the visitor comes back to it: the rest loads then, and the launcher shows the news', async () => {
    const p = proxy();
    const { chat } = await mount(p); // this page: its launcher closed, nothing pointed at
    await afterIdle();
    expect(!!chat.shadowRoot!.querySelector('.messages'), 'nothing to load for, once the page is idle').to.equal(false);
    // Another tab of the site, where the visitor chats, closes the panel and gets a reply there.
    const other = await greetedThenClosed(p);
    await replyWhileClosed(other, p, 'where is my order?', 'Your order shipped today.');
    expect(!!chat.shadowRoot!.querySelector('.messages'), 'this page has not looked yet').to.equal(false);
    // The visitor looks at another tab, then comes back to this one.
    try {
      lookAway(true);
      document.dispatchEvent(new Event('visibilitychange'));
    } finally {
      lookBack();
    }
    document.dispatchEvent(new Event('visibilitychange'));
    await waitUntil(() => part(chat, 'badge'), 'the news told here too', WAIT);
    expect(bubbles(chat)).to.deep.equal(bubbles(other));
  });

  it('the teaser shows after its delay once per visitor; dismissed, never again', async () => {
    const p = proxy();
    const { chat } = await mount(p, { attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': '0' } });
    await waitUntil(() => part(chat, 'teaser'), 'teaser shown', WAIT);
    expect(shownText(chat, 'teaser')).to.equal('Questions? Ask us here');
    expect(announced(chat)).to.equal('Questions? Ask us here');
    expect(localStorage.getItem(TEASER_SEEN_KEY), 'remembered').to.not.equal(null);
    expect(p.requests, 'showing it sends nothing').to.have.length(0);
    part(chat, 'dismiss-button')!.click();
    await chat.updateComplete;
    expect(shownText(chat, 'teaser')).to.equal(null);
    chat.remove();
    // The next page view: the teaser stays away, and the shell loads nothing for it.
    await expectNothingLoadedForTheTeaser(p);
  });

  it('no teaser beside a panel open as the page loads (the visitor had it open on the page before), even where no conversation has begun: the agent down', async () => {
    const p = proxy();
    p.handle(() => ({ networkError: true }));
    const { chat } = await mount(p, { open: true, attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': '0' } });
    await waitUntil(() => p.requests.length > 0, 'the greeting asked for', WAIT);
    await afterTheShellsTimer();
    await chat.updateComplete; // (waits for the teaser's code, which looks whether it is due as it comes)
    expect(chat.shadowRoot!.querySelector('.messages'), 'the panel drawn').to.not.equal(null);
    expect([shownText(chat, 'teaser'), localStorage.getItem(TEASER_SEEN_KEY)], 'no teaser, none remembered as seen').to.deep.equal([null, null]);
    chat.remove();
  });

  it('a teaser shown beside the launcher goes when the site makes the chat inline (no launcher to invite to)', async () => {
    const p = proxy();
    const { chat } = await mount(p, { attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': '0' } });
    await waitUntil(() => part(chat, 'teaser'), 'teaser shown', WAIT);
    chat.mode = 'inline';
    await chat.updateComplete;
    expect([shownText(chat, 'teaser'), !!part(chat, 'launcher')], 'neither teaser nor launcher').to.deep.equal([null, false]);
    chat.remove();
  });

  it('the teaser waits its delay from the moment the chat is on the page (the page loaded long before): not shown any sooner', async () => {
    const p = proxy();
    const mounted = performance.now();
    const { chat } = await mount(p, { attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': '1' } });
    await waitUntil(() => part(chat, 'teaser'), 'teaser shown', WAIT);
    expect(performance.now() - mounted, 'ms from the chat on the page to its teaser').to.be.at.least(1000);
    chat.remove();
  });

  it('no teaser for a visitor who has chatted: opened before it was due, then on the next page where it is due at once', async () => {
    const p = proxy();
    const later = String(Math.ceil(performance.now() / 1000) + 600); // due ten minutes after this page loaded
    const first = await mount(p, { attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': later } });
    await clickLauncher(first.chat);
    await waitForBubbles(first.chat, 1);
    await clickLauncher(first.chat); // closed again, before the teaser was due
    first.chat.remove();
    // The next page, where it is due at once: none (the rest may load to find out, once).
    const again = await mount(p, { attrs: { teaser: 'Questions? Ask us here', 'teaser-delay': '0' } });
    await afterTheShellsTimer();
    await again.chat.updateComplete;
    expect(shownText(again.chat, 'teaser'), 'they know where the chat is').to.equal(null);
    expect(p.requests, 'and nothing was sent for it').to.have.length(1);
    again.chat.remove();
    // And the pages after it load nothing for it.
    await expectNothingLoadedForTheTeaser(p);
  });

  it('a teaser whose visitor cannot be remembered (storage that cannot be read) never shows, and no page loads the rest for it', async () => {
    const p = proxy();
    const { getItem, setItem } = Storage.prototype;
    const blocked = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    Storage.prototype.getItem = blocked;
    Storage.prototype.setItem = blocked;
    try {
      await expectNothingLoadedForTheTeaser(p);
    } finally {
      Storage.prototype.getItem = getItem;
      Storage.prototype.setItem = setItem;
    }
  });

  it('waits while the visitor types in the page, then shows', async () => {
    const p = proxy();
    const input = await fixture<HTMLInputElement>(html`<input aria-label="search" />`);
    input.focus();
    const { chat } = await mount(p, { attrs: { teaser: 'Need help?', 'teaser-delay': '0' } });
    await waitUntil(() => chat.shadowRoot!.querySelector('.messages'), 'the rest loaded (the teaser is due)', WAIT);
    await chat.updateComplete;
    expect(shownText(chat, 'teaser'), 'not while typing').to.equal(null);
    input.blur();
    await waitUntil(() => part(chat, 'teaser'), 'shown once they stop', WAIT);
  });

  for (const [why, away, back] of [
    ['the site hides the element (`hidden`: a page of a single-page site without the chat)', (chat: AgentChat) => (chat.hidden = true), (chat: AgentChat) => (chat.hidden = false)],
    ['the page is in the background (a tab opened for later)', () => lookAway(true), () => lookBack()],
  ] as const) {
    it(`waits while ${why}, then shows: not remembered as seen by a visitor who could not see it`, async () => {
      const p = proxy();
      const chat = document.createElement('agent-chat');
      Object.assign(chat, { proxyUrl: p.url, teaser: 'Need help?', teaserDelay: 0 });
      away(chat);
      try {
        document.body.append(chat);
        await waitUntil(() => chat.shadowRoot!.querySelector('.messages'), 'the rest loaded (the teaser is due)', WAIT);
        await chat.updateComplete;
        expect(shownText(chat, 'teaser'), 'not yet').to.equal(null);
        expect(localStorage.getItem(TEASER_SEEN_KEY), 'not seen').to.equal(null);
        back(chat);
        await waitUntil(() => part(chat, 'teaser'), 'shown once it can be seen', WAIT);
        expect(localStorage.getItem(TEASER_SEEN_KEY), 'seen now').to.not.equal(null);
      } finally {
        lookBack();
        chat.remove();
      }
    });
  }

  /** Where the visitor's field is, and how the page makes it. */
  const fields: [string, () => Promise<HTMLInputElement>][] = [
    ['a component of the page (a design system\'s text field, in its shadow root)', async () => {
      const component = await fixture<HTMLElement>(html`<div></div>`);
      return component.attachShadow({ mode: 'open' }).appendChild(document.createElement('input'));
    }],
    ['a frame of the page (a payment form\'s card number)', async () => {
      const frame = await fixture<HTMLIFrameElement>(html`<iframe></iframe>`);
      await new Promise((resolve) => { frame.onload = resolve; frame.srcdoc = '<input aria-label="Card number">'; });
      return frame.contentDocument!.querySelector('input')!;
    }],
  ];
  for (const [where, field] of fields) {
    it(`waits while the visitor is in a field inside ${where}, then shows`, async () => {
      const p = proxy();
      (await field()).focus();
      const { chat } = await mount(p, { attrs: { teaser: 'Need help?', 'teaser-delay': '0' } });
      await waitUntil(() => chat.shadowRoot!.querySelector('.messages'), 'the rest loaded (the teaser is due)', WAIT);
      await chat.updateComplete;
      expect(shownText(chat, 'teaser'), 'not while in the field').to.equal(null);
      // They go on in the page (a button of it).
      (await fixture<HTMLButtonElement>(html`<button>Next</button>`)).focus();
      await waitUntil(() => part(chat, 'teaser'), 'shown once they leave it', WAIT);
    });
  }

  it('keys pressed on the widget itself (its launcher focused) are not typing elsewhere: the teaser shows as they go on', async () => {
    const p = proxy();
    // Due a second or two from now (the delay counts from the page's load), so that keys come before it.
    const { chat } = await mount(p, { attrs: { teaser: 'Need help?', 'teaser-delay': String(Math.ceil(performance.now() / 1000) + 1) } });
    part(chat, 'launcher')!.focus();
    await waitUntil(() => chat.shadowRoot!.querySelector('.messages'), 'the rest loaded (pointed at)', WAIT);
    // (Pressed until it shows, for at most 6 s: with the keys counted, it would wait as long as they came.)
    for (const end = Date.now() + 6000; !part(chat, 'teaser');) {
      if (Date.now() > end) expect.fail('the teaser waited for keys pressed on the launcher');
      await sendKeys({ press: 'Shift' });
    }
  });

  describe('the rest of the widget loaded before the teaser is due (`load="eager"`, or the visitor pointed at the launcher): the teaser keeps its own rules', function () {
    // Each waits for a teaser due two or three seconds on (the rest loads in that time on a busy machine).
    this.timeout(20_000);
    /** A closed chat whose rest has loaded and drawn (its nudges looked whether the teaser is due). */
    const loadedEarly = async (attrs: Record<string, string>) => {
      const { chat } = await mount(proxy(), { attrs: { load: 'eager', ...attrs } });
      await waitUntil(() => chat.shadowRoot!.querySelector('.messages'), 'the rest loaded', WAIT);
      await chat.updateComplete;
      return chat;
    };
    /** A `teaser-delay` that falls due two or three seconds from now (the delay counts from the page's load). */
    const dueSoon = () => {
      const seconds = Math.ceil(performance.now() / 1000) + 2;
      return { delay: String(seconds), at: seconds * 1000 };
    };

    it('waits its delay: not shown before it is due', async () => {
      const due = dueSoon();
      const chat = await loadedEarly({ teaser: 'Need help?', 'teaser-delay': due.delay });
      expect(shownText(chat, 'teaser'), 'loaded, not due yet').to.equal(null);
      await waitUntil(() => part(chat, 'teaser'), 'shown once due', WAIT);
      expect(performance.now(), 'ms after the page loaded').to.be.at.least(due.at);
    });

    it('waits while the visitor presses keys in the page (its shortcuts, a game), also keys the page stops, and shows once they stop', async () => {
      const due = dueSoon();
      const button = await fixture<HTMLButtonElement>(html`<button>page</button>`);
      const stop = (event: KeyboardEvent) => event.stopPropagation();
      button.addEventListener('keydown', stop);
      try {
        const chat = await loadedEarly({ teaser: 'Need help?', 'teaser-delay': due.delay });
        button.focus();
        // Keys until past its time (half a second: it would show at once): it waits for them.
        while (performance.now() < due.at + 500) {
          await sendKeys({ press: 'Shift' });
          expect(shownText(chat, 'teaser'), 'not while keys come').to.equal(null);
        }
        await waitUntil(() => part(chat, 'teaser'), 'shown once the keys stopped', WAIT);
      } finally {
        button.removeEventListener('keydown', stop);
      }
    });

    it('never for a visitor who has seen it (on an earlier page), nor for one whose storage cannot be read', async () => {
      localStorage.setItem(TEASER_SEEN_KEY, '1');
      const seen = await loadedEarly({ teaser: 'Need help?', 'teaser-delay': '0' });
      expect(shownText(seen, 'teaser'), 'seen before').to.equal(null);
      seen.remove();
      localStorage.removeItem(TEASER_SEEN_KEY);
      const { getItem } = Storage.prototype;
      Storage.prototype.getItem = function (this: Storage, key: string) {
        if (key === TEASER_SEEN_KEY) throw new DOMException('The operation is insecure.', 'SecurityError');
        return getItem.call(this, key);
      };
      try {
        const unknown = await loadedEarly({ teaser: 'Need help?', 'teaser-delay': '0' });
        expect(shownText(unknown, 'teaser'), 'a visitor it cannot remember').to.equal(null);
      } finally {
        Storage.prototype.getItem = getItem;
      }
    });

    it('taken off the page before it is due (a single-page site going to a page without the chat): not remembered as seen', async () => {
      const due = dueSoon();
      const chat = await loadedEarly({ teaser: 'Need help?', 'teaser-delay': due.delay });
      chat.remove();
      // Until a second past its time (its timer would have run by then).
      await waitUntil(() => performance.now() > due.at + 1000, 'past its time', { timeout: 10_000 });
      expect(localStorage.getItem(TEASER_SEEN_KEY), 'never seen').to.equal(null);
    });

    it('without a teaser, remembers none as seen (a teaser the site adds later still shows)', async () => {
      await loadedEarly({});
      expect(localStorage.getItem(TEASER_SEEN_KEY)).to.equal(null);
    });
  });

  it('no teaser inline, or once the chat is open', async () => {
    const p = proxy();
    const inline = await mount(p, { mode: 'inline', attrs: { teaser: 'Hi', 'teaser-delay': '0' } });
    await waitForBubbles(inline.chat, 1);
    expect(shownText(inline.chat, 'teaser')).to.equal(null);
    const open = await mount(proxy(), { open: true, attrs: { teaser: 'Hi', 'teaser-delay': '0' } });
    await waitForBubbles(open.chat, 1);
    open.chat.hide();
    await open.chat.updateComplete;
    expect(shownText(open.chat, 'teaser')).to.equal(null);
  });
});
