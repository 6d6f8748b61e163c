import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { stringsFor } from '../../src/i18n/strings.js';
import { initials } from '../../src/views/header.js';
import { transcriptText } from '../../src/views/transcript-file.js';
import { mount, part, shownText, useFakeProxies, WAIT, waitForBubbles } from '../support/widget.js';
import { submit } from '../journeys/support.js';

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('header: who the visitor talks to, and the conversation as a file', () => {
  const proxy = useFakeProxies();

  it('shows the agent\'s picture and subtitle; without a usable picture, the initials of the title', async () => {
    const { chat } = await mount(proxy(), { open: true, attrs: { 'agent-title': 'Support Team', 'agent-subtitle': 'Usually replies at once', 'agent-avatar': PIXEL } });
    await waitForBubbles(chat, 1);
    expect(part(chat, 'avatar')!.querySelector('img')!.getAttribute('src')).to.equal(PIXEL);
    expect(part(chat, 'avatar')!.getAttribute('aria-hidden'), 'decorative: the title names the agent').to.equal('true');
    expect(shownText(chat, 'subtitle')).to.equal('Usually replies at once');
    chat.agentAvatar = 'javascript:alert(1)';
    await chat.updateComplete;
    expect(part(chat, 'avatar')!.querySelector('img'), 'not allowlisted').to.equal(null);
    expect(shownText(chat, 'avatar')).to.equal('ST');
    chat.agentAvatar = 'https://127.0.0.1:9/missing.png'; // nothing listens there: the image fails
    await chat.updateComplete;
    await waitUntil(() => !part(chat, 'avatar')!.querySelector('img'), 'a picture that fails to load gives way to the initials', WAIT);
    expect(shownText(chat, 'avatar')).to.equal('ST');
    expect(initials('ava')).to.equal('A');
    expect(initials('  Όλγα  Παππά ')).to.equal('ΌΠ');
    expect(initials('Ada from Support'), 'two at most').to.equal('AF');
    // A letter outside the Basic Multilingual Plane (the 𠮷 of 𠮷野家, a Japanese name) is one initial, not half of one.
    expect(initials('𠮷野家 サポート')).to.equal('𠮷サ');
  });

  it('each icon-only header button is named, and says its name on hover (title)', async () => {
    const { chat } = await mount(proxy(), { open: true, attrs: { tts: '' } });
    await waitForBubbles(chat, 1);
    const buttons = [...chat.shadowRoot!.querySelectorAll('[part~="header-button"]')];
    expect(buttons.map((b) => b.getAttribute('part')!.split(' ')[1]), 'the header\'s buttons').to.deep.equal(['tts-toggle', 'download-button', 'restart-button', 'close-button']);
    for (const button of buttons) {
      expect(button.getAttribute('aria-label'), `${button.getAttribute('part')}: named`).to.match(/\w/);
      expect(button.getAttribute('title'), `${button.getAttribute('part')}: its name on hover`).to.equal(button.getAttribute('aria-label'));
    }
  });

  // On a right-to-left page the header is laid out right to left, as the page's own language wants;
  // an English title or subtitle there (or a Hebrew one on a left-to-right page) too long for it
  // was cut at its start ("…s at once, offline too"): the line took the page's direction. Then at
  // its end ("Usually replies at o…" on a 320 px phone): the rest was out of sight; now it wraps.
  for (const [dir, long, short] of [
    ['rtl', 'Usually replies at once, offline too, and in every language of this world', 'Replies at once'],
    ['ltr', 'עונה מיד, גם במצב לא מקוון, ובכל שפה בעולם הזה, תמיד', 'עונה מיד'],
  ] as const) {
    it(`on a page written ${dir}, a title or subtitle in the other direction shows its start, beside the picture; too long for the header, it wraps, none of it cut off`, async () => {
      const p = proxy();
      const header = async (subtitle: string) => {
        const box = await fixture<HTMLDivElement>(html`<div dir=${dir} style="width: 320px; height: 600px">
          <agent-chat mode="inline" proxy-url=${p.url} agent-title="Support" agent-subtitle=${subtitle}></agent-chat></div>`);
        const chat = box.querySelector('agent-chat') as AgentChat;
        await waitForBubbles(chat, 1);
        return chat;
      };
      const shownStart = (element: HTMLElement) => {
        const text = [...element.childNodes].find((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim())!;
        const first = document.createRange();
        first.setStart(text, 0);
        first.setEnd(text, 1);
        const [letter, line] = [first.getBoundingClientRect(), element.getBoundingClientRect()];
        return letter.left >= line.left - 0.5 && letter.right <= line.right + 0.5;
      };

      let chat = await header(long);
      const subtitle = part(chat, 'subtitle')!;
      const lines = (element: HTMLElement) => Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight));
      expect(lines(subtitle), 'too long for a line of the header: its lines').to.be.at.least(2);
      expect(subtitle.scrollWidth, 'none of it cut off').to.be.at.most(subtitle.clientWidth);
      expect(part(chat, 'header')!.getBoundingClientRect().height, 'the header as high as its lines').to.be.at.least(subtitle.getBoundingClientRect().height);
      expect(shownStart(subtitle), 'the first letter in sight').to.equal(true);
      expect(shownStart(part(chat, 'title')!)).to.equal(true);

      fixtureCleanup();
      chat = await header(short);
      const [avatar, title, restart] = ['avatar', 'title', 'restart-button'].map((name) => part(chat, name)!.getBoundingClientRect());
      const gap = (a: DOMRect, b: DOMRect) => (dir === 'rtl' ? a.left - b.right : b.left - a.right);
      expect(gap(avatar, title), 'the title beside the picture').to.be.within(0, 12);
      expect(gap(title, restart), 'the buttons at the other end').to.be.greaterThan(100);
    });
  }

  it('downloads the conversation as a text file with times, in the visitor\'s language', async () => {
    const saved: { name: string; text: Promise<string> }[] = [];
    const createObjectURL = URL.createObjectURL;
    const revokeObjectURL = URL.revokeObjectURL;
    const revoked: string[] = [];
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
    const click = HTMLAnchorElement.prototype.click;
    const blobs = new Map<string, Blob>();
    URL.createObjectURL = (blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (!this.isConnected) throw new Error('Firefox downloads only from a connected link');
      saved.push({ name: this.download, text: blobs.get(this.href)!.text() });
    };
    try {
      const { chat } = await mount(proxy(), { open: true, attrs: { 'agent-title': 'Support', language: 'de' } });
      await waitForBubbles(chat, 1);
      await submit(chat, 'Wo ist meine Bestellung?');
      await waitForBubbles(chat, 3);
      // Downloaded at an hour when the visitor's date is not UTC's (the browsers run in a zone of
      // their own: web-test-runner.config.mjs), so a file named for UTC's date would show.
      const RealDate = Date;
      const at = new RealDate(Date.UTC(2026, 10, 26, new RealDate().getTimezoneOffset() < 0 ? 23 : 0, 30));
      globalThis.Date = class extends RealDate {
        constructor(...args: ConstructorParameters<DateConstructor> | []) {
          if (args.length) super(...(args as [number])); else super(+at);
        }
      } as DateConstructor;
      try {
        part(chat, 'download-button')!.click();
        await waitUntil(() => saved.length === 1, 'downloaded', WAIT);
      } finally {
        globalThis.Date = RealDate;
      }
      const pad = (n: number) => String(n).padStart(2, '0');
      expect(saved[0].name, 'named for the visitor\'s date, not UTC\'s').to.equal(`conversation-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}.txt`);
      const text = await saved[0].text;
      const lines = text.split('\n');
      expect(lines[0]).to.equal('Gespräch mit Support');
      expect(lines[2], 'the day, in German').to.match(/\d{4}/);
      expect(lines[4]).to.match(/^\[\d{1,2}:\d{2}\] Support: Hello! How can I help\?$/);
      expect(lines[5]).to.match(/^\[\d{1,2}:\d{2}\] Sie: Wo ist meine Bestellung\?$/);
      expect(lines[6]).to.match(/^\[\d{1,2}:\d{2}\] Support: You said: Wo ist meine Bestellung\?$/);
      expect(part(chat, 'download-button')!.getAttribute('aria-label')).to.equal('Gespräch herunterladen');
      expect((chat as AgentChat).shadowRoot!.querySelector('a[download]'), 'the link is gone').to.equal(null);
      // The file's contents are let go once the browser has them (held until the page goes, otherwise).
      await waitUntil(() => revoked.includes('blob:test/0'), 'the file\'s address let go', WAIT);
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
      HTMLAnchorElement.prototype.click = click;
    }
  });

  it('the file starts a new day with its date, and shows replies as their plain text', () => {
    const day = new Date(2026, 10, 22, 23, 58).getTime();
    const text = transcriptText([
      { kind: 'agent', id: 'a', at: day, item: { type: 'text', options: ['**Bold** answer'], altText: 'Bold answer' } },
      { kind: 'user', id: 'u', at: day + 4 * 60_000, text: 'after midnight', status: 'sent', request: { text: 'after midnight' } },
      { kind: 'agent', id: 'b', at: day + 5 * 60_000, item: { type: 'buttons', text: 'Pick', buttons: [{ title: 'A' }] } },
      { kind: 'user', id: 'f', at: day + 6 * 60_000, text: 'refused', status: 'failed', error: 'x', request: { text: 'refused' } },
      { kind: 'user', id: 's', at: day + 7 * 60_000, text: 'still waiting', status: 'sending', request: { text: 'still waiting' } },
    ], { agent: 'Ava', strings: stringsFor('en', {}), language: 'en' });
    const lines = text.split('\n');
    expect(lines[0]).to.equal('Conversation with Ava');
    expect(lines.filter((l) => /2026/.test(l)), 'two days').to.have.length(2);
    expect(text).to.contain('Ava: Bold answer').and.contain('You: after midnight\n').and.contain('Ava: Pick');
    // The visitor's record: what the agent never got is not shown as said.
    expect(text, 'a failed message').to.contain('You: refused [Not delivered]\n');
    expect(text, 'a message still to be sent').to.contain('You: still waiting [Not delivered]\n');
  });
});
