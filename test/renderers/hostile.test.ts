import { expect, fixtureCleanup, waitUntil } from '@open-wc/testing';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { FakeProxy, ok } from '../support/fake-proxy.js';
import { HOSTILE } from '../support/hostile-payloads.js';
import { bubbles, mount, part, parts, WAIT, collectPageErrors } from '../support/widget.js';

/** Every field a reply can carry, each holding the payload. */
function itemsCarrying(payload: string): AgentResponseItem[] {
  return [
    { type: 'text', options: [payload, `before ${payload} after`], altText: payload },
    { type: 'buttons', text: payload, altText: payload,
      buttons: [{ title: payload, url: payload }, { title: payload, payload: { type: 'node', data: payload } }, { title: payload }] },
    { type: 'buttons', options: [payload], altText: payload },
    { type: 'carousel', altText: payload, cards: [
      { title: payload, subtitle: payload, url: payload, imageUrl: payload, imageAlt: payload, buttons: [{ title: payload, url: payload }] },
    ] },
    { type: 'unknown-type', altText: payload },
    { type: 'text', options: 'not a list', altText: payload },
  ];
}

/** Sends a message and waits for the agent's answer to be drawn: the widget still works. */
async function stillAnswers(chat: AgentChat) {
  chat.send('still usable?');
  await waitUntil(() => bubbles(chat).at(-1) === 'You said: still usable?', 'the widget still answers', WAIT);
}

const SAFE_LINK = /^(https?:|mailto:|tel:)/;
const SAFE_IMAGE = /^(https?:|data:image\/(png|jpe?g|gif|webp|avif);base64,)/;

describe('hostile replies', () => {
  afterEach(() => {
    fixtureCleanup();
    localStorage.clear();
  });

  it(`has at least 50 payloads (${HOSTILE.length})`, () => expect(HOSTILE.length).to.be.at.least(50));

  // Markdown the renderer cannot draw: the reply as its altText, and the widget answers on.
  const undrawable = [
    ['nested deeper than the markdown parser can follow (quotes in quotes, marked recursing at each)', `${'>'.repeat(20_000)} too deep`],
    ['that begins with a frameset (the HTML parser puts it in place of the body, and DOMPurify gives back nothing)', '<frameset>**Welcome**, ask me anything'],
  ];
  for (const [what, markdown] of undrawable) {
    it(`a reply ${what} shows its altText, and the widget answers on`, async () => {
      const { errors, stop } = collectPageErrors();
      const proxy = new FakeProxy().next(ok({ type: 'text', options: [markdown], altText: 'Said plainly' }, { type: 'text', options: ['**after** it'], altText: 'after it' }));
      try {
        const { chat } = await mount(proxy, { open: true });
        await waitUntil(() => bubbles(chat).includes('after it'), 'the reply after it drawn', WAIT);
        expect(bubbles(chat), 'the undrawable one as its altText, the next as markdown').to.deep.equal(['Said plainly', 'after it']);
        expect(parts(chat, 'bubble--fallback').map((b) => b.textContent!.trim())).to.deep.equal(['Said plainly']);
        expect(errors, 'no uncaught errors').to.deep.equal([]);
        await stillAnswers(chat);
      } finally {
        stop();
        proxy.restore();
      }
    });
  }

  it('a reply caught in a loop of spaces (100,000 after a sentence, then a code block) is drawn with runs of at most 100, and the widget answers on', async () => {
    // marked's time grows with the square of a run of spaces: uncut, this reply held the page for
    // seconds (test/bundle/marked-source.test.ts). Only a code block shows the cut.
    const { errors, stop } = collectPageErrors();
    const run = (n: number) => ' '.repeat(n);
    const proxy = new FakeProxy().next(ok({ type: 'text', options: [`Here it is:${run(100_000)}\n\`\`\`\nx${run(150)}y\n\`\`\``], altText: 'Here it is' }));
    try {
      const { chat } = await mount(proxy, { open: true });
      await waitUntil(() => chat.shadowRoot!.querySelector('pre'), 'the code block drawn', WAIT);
      expect(chat.shadowRoot!.querySelector('pre')!.textContent).to.equal(`x${run(100)}y\n`);
      expect(bubbles(chat)[0], 'as markdown, not its altText').to.match(/^Here it is:\s+Copy/);
      expect(errors, 'no uncaught errors').to.deep.equal([]);
      await stillAnswers(chat);
    } finally {
      stop();
      proxy.restore();
    }
  });

  it('none of them runs, escapes the shadow root or breaks the widget, in any field', async () => {
    const { errors, stop } = collectPageErrors();
    const before = { body: document.body.children.length, head: document.head.innerHTML, chats: document.querySelectorAll('agent-chat').length };
    const proxy = new FakeProxy().next(ok(...HOSTILE.flatMap(itemsCarrying)));
    try {
      const { chat } = await mount(proxy, { open: true });
      const root = chat.shadowRoot!;
      // The log keeps the newest entries in the DOM: bring every earlier one back, so all are drawn.
      await waitUntil(() => parts(chat, 'message--agent').at(-1) !== undefined, 'the reply shown', WAIT);
      for (let guard = 0; part(chat, 'earlier-button') && guard < 100; guard++) {
        part(chat, 'earlier-button')!.click();
        await chat.updateComplete;
      }
      await waitUntil(() => parts(chat, 'message--agent').length === HOSTILE.length * 6, 'every hostile item rendered', WAIT);
      // Images fail to load asynchronously; once all are complete any onerror would have fired.
      // (They are lazy: off screen they would never start, so start them.)
      for (const img of root.querySelectorAll('img')) img.loading = 'eager';
      await waitUntil(() => [...root.querySelectorAll('img')].every((img) => img.complete), 'images settled', WAIT);

      expect((window as { __pwned?: unknown }).__pwned, 'nothing executed').to.equal(undefined);
      expect(errors, 'no uncaught errors').to.deep.equal([]);
      const DANGEROUS = 'script, iframe, object, embed, style, link, meta, base, form:not([part~="composer"]), input, template, slot, agent-chat, svg script, math';
      expect([...root.querySelectorAll(DANGEROUS)].map((e) => e.outerHTML.slice(0, 120)), 'dangerous elements').to.deep.equal([]);
      for (const el of root.querySelectorAll('*')) {
        for (const attr of el.getAttributeNames()) expect(attr, `${el.localName}[${attr}]`).not.to.match(/^on/i);
        // (The input's own height, which the widget sets where the browser has no field-sizing.)
        const own = el.matches('[part~="input"]') && /^height: \d+(\.\d+)?px;$/.test(el.getAttribute('style') ?? '');
        if (!own) expect(el.getAttribute('style'), `${el.localName} style`).to.equal(null);
      }
      for (const a of root.querySelectorAll('a[href]')) expect(a.getAttribute('href')).to.match(SAFE_LINK);
      for (const img of root.querySelectorAll('img[src]')) expect(img.getAttribute('src')).to.match(SAFE_IMAGE);
      for (const img of root.querySelectorAll('img[srcset]')) expect.fail(`srcset kept: ${img.getAttribute('srcset')}`);

      expect(document.body.children.length, 'nothing added to the page but the fixture').to.equal(before.body + 1);
      expect(document.head.innerHTML, 'head untouched').to.equal(before.head);
      expect(document.querySelectorAll('agent-chat').length, 'no injected widget: only ours').to.equal(before.chats + 1);

      // (Sending takes the log back to the newest entries: count the reply, not the entries.)
      await stillAnswers(chat);
      expect(bubbles(chat).at(-2)).to.equal('still usable?');
    } finally {
      stop();
      proxy.restore();
    }
  });
});
