/**
 * A reply a language model writes (a list, a nested list, a 6-column table, a 200-character code
 * line, a quote, a long URL), read in the panel at 380 px and at 320 px: no word broken inside a
 * table cell, the table and the code scroll inside the bubble, nothing overflows the panel; its
 * headings a step above its text; a carousel and long choices within the panel.
 */
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import '../../src/agent-chat.js';
import type { AgentChat } from '../../src/agent-chat.js';
import type { AgentResponseItem } from '../../src/protocol/types.js';
import { FakeProxy, ok, text } from '../support/fake-proxy.js';
import { LONG_REPLY as LONG } from '../support/long-reply.js';
import { openInFrame, part, WAIT } from '../support/widget.js';

/** Each test's chat and conversation gone before the next. */
const cleanUp = () => {
  fixtureCleanup();
  localStorage.clear();
};



/** How many line boxes each word of `element`'s text takes (a word broken in the middle takes two). */
function brokenWords(element: Element): string[] {
  const broken: string[] = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent!.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index!);
      range.setEnd(node, match.index! + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}

/** How many lines `element`'s text takes. */
function lines(element: Element): number {
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}

const inside = (inner: Element, outer: Element) => {
  const a = inner.getBoundingClientRect();
  const b = outer.getBoundingClientRect();
  return a.left >= b.left - 1 && a.right <= b.right + 1;
};

/**
 * The corners of `element`'s line boxes that fall outside its rounded border (each line's rect, held
 * against the circle of the corner it is in), e.g. ["top left"].
 */
function textOutsideCorners(element: Element): string[] {
  const box = element.getBoundingClientRect();
  const radius = Math.min(parseFloat(getComputedStyle(element).borderTopLeftRadius), box.height / 2, box.width / 2);
  const range = document.createRange();
  range.selectNodeContents(element);
  const outside = new Set<string>();
  for (const r of [...range.getClientRects()].filter((rect) => rect.width > 0)) {
    for (const [x, y, name] of [[r.left, r.top, 'top left'], [r.right, r.top, 'top right'], [r.left, r.bottom, 'bottom left'], [r.right, r.bottom, 'bottom right']] as const) {
      // Distance into the corner square from its inner edges; outside the curve if beyond the radius.
      const dx = Math.max(0, radius - Math.min(x - box.left, box.right - x));
      const dy = Math.max(0, radius - Math.min(y - box.top, box.bottom - y));
      if (dx > 0 && dy > 0 && dx * dx + dy * dy > radius * radius + 1) outside.add(name);
    }
  }
  return [...outside];
}

/** An inline chat `width` px wide (in a box of direction `dir`), once its first reply shows `selector`. */
async function inlineChat(proxy: FakeProxy, width: number, selector: string, dir = 'ltr', hostStyle = '') {
  const box = await fixture<HTMLDivElement>(html`<div dir=${dir} style="width: ${width}px; height: 640px; ${hostStyle}">
    <agent-chat mode="inline" proxy-url=${proxy.url}></agent-chat></div>`);
  const chat = box.querySelector('agent-chat') as AgentChat;
  await waitUntil(() => chat.shadowRoot!.querySelector(selector), 'the reply shown', WAIT);
  await chat.updateComplete;
  return chat;
}

describe('a long markdown reply, readable', () => {
  afterEach(cleanUp);

  // The last on a page that breaks its own text anywhere, inherited through the shadow root (a guard:
  // the cells kept their words even then, their table taking the width they want; a reply's lines
  // did not: see "the host page's text styles").
  const BREAKING = 'word-break: break-all; line-break: anywhere; overflow-wrap: anywhere; hyphens: auto';
  for (const [width, hostStyle] of [[380, ''], [320, ''], [320, BREAKING]] as const) {
    it(`at ${width} px${hostStyle ? ' on a page that breaks words anywhere' : ''}: words whole in cells, table and code scroll inside the bubble, nothing overflows`, async () => {
      const proxy = new FakeProxy().next(ok(text(LONG)));
      try {
        const chat = await inlineChat(proxy, width, 'table', 'ltr', hostStyle);
        const root = chat.shadowRoot!;
        const bubble = root.querySelector('table')!.closest('[part~="bubble"]')!;
        const table = root.querySelector('table')!;
        const pre = root.querySelector('pre')!;

        expect([...table.querySelectorAll('th, td')].flatMap(brokenWords), 'words broken inside cells').to.deep.equal([]);
        // Never squeezed: a table wider than the bubble scrolls at a width where a cell of a few
        // words keeps them on one line (squeezed to the bubble, every cell broke at each space).
        const cells = [...table.querySelectorAll('th, td')];
        const short = cells.filter((cell) => ['99.95 %', 'Chat and phone', 'Contact us'].includes(cell.textContent!));
        expect(short.map((cell) => `${cell.textContent}: ${lines(cell)}`), 'short cells on one line').to.deep.equal(['99.95 %: 1', 'Chat and phone: 1', 'Contact us: 1']);
        const scroller = table.closest('.table')!;
        expect(inside(scroller, bubble), 'the table stays inside the bubble').to.equal(true);
        expect(inside(pre, bubble), 'the code stays inside the bubble').to.equal(true);
        expect(pre.scrollWidth, 'the code scrolls').to.be.greaterThan(pre.clientWidth);
        expect(getComputedStyle(pre).overflowX).to.equal('auto');
        expect(scroller.scrollWidth, 'a table wider than the bubble scrolls').to.be.greaterThan(scroller.clientWidth);
        expect(getComputedStyle(scroller).overflowX).to.equal('auto');
        // Where scrollbars only show while scrolling (phones, Macs), a shade at the edge says there is
        // more: shades fixed to the box, covers that scroll with the content (background-attachment).
        for (const box of [pre, scroller]) {
          expect(getComputedStyle(box).backgroundAttachment, `${box.localName}: a shade at the edge with more`).to.equal('local, local, scroll, scroll');
          // Where a scrollbar stays and takes room (Windows, Linux: Firefox here), a thin one, its
          // track the bubble's own (Firefox drew a 12 px white band, its thumb hardly seen).
          const bar = (box as HTMLElement).offsetHeight - box.clientHeight - parseFloat(getComputedStyle(box).borderBottomWidth) - parseFloat(getComputedStyle(box).borderTopWidth);
          expect(bar, `${box.localName}: a thin scrollbar, if any`).to.be.at.most(10);
          if (CSS.supports('scrollbar-color', 'red blue')) expect(getComputedStyle(box).scrollbarColor, `${box.localName}: its track clear`).to.match(/rgba\(0, 0, 0, 0\)$/);
        }
        expect(getComputedStyle(pre).backgroundColor, 'the code on a tinted background').to.not.equal(getComputedStyle(bubble).backgroundColor);
        const log = part(chat, 'log')!;
        expect(log.scrollWidth, 'nothing overflows the log').to.be.at.most(log.clientWidth);
        expect(getComputedStyle(root.querySelector('th')!).borderTopStyle, 'cells have borders').to.equal('solid');
        expect(bubble.getAttribute('dir'), 'the bubble sets its own direction').to.equal('auto');
      } finally {
        proxy.restore();
      }
    });
  }
});

describe('headings in a reply, readable', () => {
  afterEach(cleanUp);

  it('are a step above the text, h1 at most 1.25 times it, none below it, bold, and closer to what they head than to what comes before', async () => {
    const reply = '# Your order\nWhere it stands.\n## Shipping\nIt left today.\n### Next\nAn email.\n#### Help\nAsk.\n##### Notes\nNone.\n###### Small print\nVAT included.';
    const proxy = new FakeProxy().next(ok(text(reply)));
    try {
      const chat = await inlineChat(proxy, 380, 'h6');
      const root = chat.shadowRoot!;
      const size = (el: Element) => parseFloat(getComputedStyle(el).fontSize);
      const bubble = root.querySelector('h6')!.closest('[part~="bubble"]')!;
      const body = size(bubble.querySelector('p')!);
      const headings = [...bubble.querySelectorAll('h1, h2, h3, h4, h5, h6')];
      expect(headings.length).to.equal(6);
      const ratios = headings.map((h) => `${h.localName} ${(size(h) / body).toFixed(2)}`);
      // In a chat bubble a heading marks a part of a reply: h1 at 2em was larger than the panel's own
      // title, and h5 and h6 (0.83em, 0.67em) smaller than the text under them.
      for (const h of headings) {
        const ratio = size(h) / body;
        expect(ratio >= 1 && ratio <= 1.25, `${ratios.join(', ')}: ${h.localName} between the text and 1.25 times it`).to.equal(true);
        expect(Number(getComputedStyle(h).fontWeight), `${h.localName} bold`).to.be.at.least(600);
        // The space the reader sees (margins collapse): above it, after what comes before, and below
        // it, before what it heads (the bubble's first child has none above).
        const [before, after] = [h.previousElementSibling, h.nextElementSibling];
        const above = before ? h.getBoundingClientRect().top - before.getBoundingClientRect().bottom : Infinity;
        const below = after!.getBoundingClientRect().top - h.getBoundingClientRect().bottom;
        expect(below, `${h.localName}: nearer to what it heads (${below} px) than to what comes before (${above} px)`).to.be.lessThan(above / 2);
      }
      const sizes = headings.map(size);
      expect(sizes.every((s, i) => i === 0 || s <= sizes[i - 1]), `${ratios.join(', ')}: no heading larger than the one above it in rank`).to.equal(true);
      expect(size(headings[0]), 'h1 not larger than the panel\'s title').to.be.at.most(size(part(chat, 'title')!) * 1.25);
    } finally {
      proxy.restore();
    }
  });
});

describe('a carousel, readable', () => {
  afterEach(cleanUp);

  const plans: AgentResponseItem = {
    id: 'CA_1', type: 'carousel', altText: 'Plans',
    cards: ['Basic', 'Pro', 'Team'].map((title, i) => ({ title, subtitle: `€${9 + 20 * i}/month`, buttons: [{ title: 'Choose', payload: { type: 'node', data: title } }] })),
  };

  for (const [width, dir] of [[380, 'ltr'], [320, 'ltr'], [380, 'rtl']] as const) {
    it(`at ${width} px (${dir}): spans the log, each card most of it, the next card showing at the log's edge`, async () => {
      const proxy = new FakeProxy().next(ok(plans));
      try {
        const chat = await inlineChat(proxy, width, '[part~="card"]', dir);
        const log = part(chat, 'log')!;
        const { paddingLeft, paddingRight } = getComputedStyle(log);
        const logBox = log.getBoundingClientRect();
        const content = { left: logBox.left + parseFloat(paddingLeft), right: logBox.right - parseFloat(paddingRight) };
        const carousel = part(chat, 'carousel')!.getBoundingClientRect();
        // Before: as wide as its content's shrink-to-fit width (218 px of a 354 px log at 380 px),
        // the second card cut off in the middle of the panel, its title and price unreadable.
        expect([Math.round(carousel.left), Math.round(carousel.right)], 'the carousel spans the log').to.deep.equal([Math.round(content.left), Math.round(content.right)]);
        const [first, second] = chat.shadowRoot!.querySelectorAll('[part~="card"]');
        expect(first.getBoundingClientRect().width, 'a card takes most of the log').to.be.at.least(0.7 * (content.right - content.left));
        const next = second.getBoundingClientRect();
        const peeks = dir === 'ltr' ? next.left < carousel.right && next.right > carousel.right : next.right > carousel.left && next.left < carousel.left;
        expect(peeks, 'the next card shows at the edge').to.equal(true);
      } finally {
        proxy.restore();
      }
    });
  }

  it('in a wide, short panel (a phone in landscape, full screen): each card\'s picture and title show together in the log, and more than one card shows', async () => {
    // A 1×1 PNG: the picture's box is set by the card's width (16:9), not by what it shows.
    const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const pictured = { ...plans, cards: (plans as unknown as { cards: object[] }).cards.map((card) => ({ ...card, imageUrl: pixel })) };
    const proxy = new FakeProxy().next(ok(pictured));
    try {
      const chat = await inlineChat(proxy, 844, '[part~="card-image"]', 'ltr', 'height: 390px');
      const log = part(chat, 'log')!.getBoundingClientRect();
      const cards = [...chat.shadowRoot!.querySelectorAll('[part~="card"]')];
      const first = cards[0].getBoundingClientRect();
      const title = cards[0].querySelector('[part~="card-title"]')!.getBoundingClientRect();
      // Before: each card 3/4 of the log (615 px), its picture 346 px high, taller than the log
      // (275 px): the visitor saw a picture and had to scroll to learn what it was.
      expect(title.bottom - first.top, `picture and title (${Math.round(title.bottom - first.top)} px) within the log's height (${Math.round(log.height)} px)`).to.be.at.most(log.height);
      const whole = cards.filter((card) => card.getBoundingClientRect().right <= log.right);
      expect(whole.length, 'cards wholly in view').to.be.at.least(2);
    } finally {
      proxy.restore();
    }
  });
});

describe('choices with long titles, readable', () => {
  afterEach(cleanUp);

  const sentence = 'I ordered more than thirty days ago and the parcel has still not arrived at my address';
  const link = 'https://example.com/a/very/long/link/that/has/no/spaces/in/it/at/all/to/break';
  const choices: AgentResponseItem = {
    id: 'BT_1', type: 'buttons', text: 'Which describes your situation best?', altText: 'Which?',
    buttons: [{ title: sentence, payload: { type: 'node', data: 'late' } }, { title: 'Refund', payload: { type: 'node', data: 'refund' } }, { title: link, url: link }],
  };
  const card: AgentResponseItem = {
    id: 'CA_1', type: 'carousel', altText: 'Plans',
    cards: [{ title: 'Enterprise_grade_unlimited_storage_with_priority_support', subtitle: '€99/month', buttons: [{ title: 'Choose', payload: { type: 'node', data: 'e' } }] }],
  };

  for (const width of [380, 320]) {
    it(`at ${width} px: each choice and card title wraps inside the log, a sentence between its words`, async () => {
      const proxy = new FakeProxy().next(ok(choices, card));
      try {
        const chat = await inlineChat(proxy, width, '[part~="card"]');
        const log = part(chat, 'log')!;
        // Before, a link's title with no space in it made the row of choices as wide as itself
        // (594 px at 320 px): the log scrolled sideways and the sentence beside it was cut off.
        expect(log.scrollWidth, 'nothing overflows the log').to.be.at.most(log.clientWidth);
        const buttons = [...chat.shadowRoot!.querySelectorAll('[part~="buttons"] > [part~="button"]')];
        expect(buttons.filter((b) => !inside(b, log)).map((b) => b.textContent!.trim()), 'choices inside the log').to.deep.equal([]);
        expect(brokenWords(buttons[0]), 'the sentence wraps between words').to.deep.equal([]);
        // A choice of several lines keeps its text inside its rounded corners: before, a pill's
        // radius grew with its height (half of it), and the curve cut into its first and last lines.
        expect(buttons.flatMap((b) => textOutsideCorners(b).map((corner) => `${b.textContent!.trim().slice(0, 12)}…: ${corner}`)), 'text clear of the corners').to.deep.equal([]);
        const title = part(chat, 'card-title')!;
        expect(title.scrollWidth, 'a card title without spaces wraps in its card').to.be.at.most(title.clientWidth);
      } finally {
        proxy.restore();
      }
    });
  }
});

/**
 * What a reply draws stays inside the log: a code block's "Copied" announcer (visually hidden, so
 * absolutely positioned) once sat where the code was in the log's content but outside the log, and
 * outside the widget: each made an inline chat's host page taller (blank space to scroll to below
 * the page), and made the launcher's panel scrollable, so that a screen reader's cursor on it (or a
 * site's scrollIntoView) scrolled the header away.
 */
describe('a reply with code, inside the widget', () => {
  afterEach(cleanUp);

  const codeReplies = (n: number) => Array.from({ length: n }, (_, i) => text(`Step ${i + 1}:\n\n\`\`\`sh\nnpm run step-${i + 1}\n\`\`\``));

  it('inline: the host page is no taller once the replies are drawn', async () => {
    const proxy = new FakeProxy().next(ok(...codeReplies(8)));
    try {
      const before = document.documentElement.scrollHeight;
      const box = await fixture<HTMLDivElement>(html`<div style="height: 300px"><agent-chat mode="inline" proxy-url=${proxy.url}></agent-chat></div>`);
      const chat = box.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => chat.shadowRoot!.querySelectorAll('.code').length === 8, 'the replies drawn', WAIT);
      await chat.updateComplete;
      const log = part(chat, 'log')!;
      expect(log.scrollHeight, 'the log scrolls').to.be.greaterThan(log.clientHeight * 2);
      const bottom = box.getBoundingClientRect().bottom + scrollY;
      expect(document.documentElement.scrollHeight, 'the page\'s height').to.be.at.most(Math.max(before, bottom) + 1);
    } finally {
      proxy.restore();
    }
  });

  it('launcher: what is scrolled into view in the log leaves the header and the composer where they are', async () => {
    const proxy = new FakeProxy().next(ok(...codeReplies(8)));
    try {
      const chat = await fixture<AgentChat>(html`<agent-chat open proxy-url=${proxy.url}></agent-chat>`);
      await waitUntil(() => chat.shadowRoot!.querySelectorAll('.code').length === 8, 'the replies drawn', WAIT);
      await chat.updateComplete;
      const panel = part(chat, 'panel')!;
      expect(panel.scrollHeight, 'nothing overflows the panel').to.be.at.most(panel.clientHeight);
      // As a screen reader's cursor does on the announcer of the first code block (scrolled up out of sight).
      chat.shadowRoot!.querySelector('.code [role="status"]')!.scrollIntoView();
      expect(panel.scrollTop, 'the panel itself scrolled').to.equal(0);
      expect(Math.round(part(chat, 'header')!.getBoundingClientRect().top), 'the header at the panel\'s top').to.equal(Math.round(panel.getBoundingClientRect().top + panel.clientTop));
    } finally {
      proxy.restore();
    }
  });
});

/** A picture of one pixel (a card's, the header's). */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * Text styles a host page sets on what holds the chat (its body, a centred section) are inherited
 * through the shadow root: uppercase, spaced, indented, italic, bold text in every bubble, the
 * avatar's initials pushed out of their circle. The widget sets its own.
 */
describe('the host page\'s text styles', () => {
  afterEach(cleanUp);

  it('do not reach the widget: its text is set as the widget sets it, whatever the page around it', async () => {
    const proxy = new FakeProxy().next(ok(text('Hello! Here is **bold** and a list:\n\n- one\n- two'), {
      id: 'BT_1', type: 'buttons', text: 'Pick one', altText: 'Pick one', buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'p' } }],
    } as AgentResponseItem));
    try {
      const box = await fixture<HTMLDivElement>(html`<div style="height: 600px; width: 400px; text-align: center; text-transform: uppercase;
        letter-spacing: 3px; word-spacing: 10px; text-indent: 40px; font-style: italic; font-weight: 700; font-variant: small-caps;
        text-shadow: 1px 1px 2px red; white-space: nowrap"><agent-chat mode="inline" agent-title="Support" proxy-url=${proxy.url}></agent-chat></div>`);
      const chat = box.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => chat.shadowRoot!.querySelector('[part~="bubble--agent"] li'), 'the reply shown', WAIT);
      await chat.updateComplete;
      const root = chat.shadowRoot!;
      const texts = [root.querySelector('[part~="bubble--agent"] p')!, root.querySelector('[part~="bubble--agent"] li')!, part(chat, 'title')!, part(chat, 'avatar')!, part(chat, 'time')!];
      for (const element of texts) {
        const style = getComputedStyle(element);
        const name = element.getAttribute('part') ?? element.localName;
        expect({
          textTransform: style.textTransform, letterSpacing: style.letterSpacing, wordSpacing: style.wordSpacing, textIndent: style.textIndent,
          fontStyle: style.fontStyle, fontVariantCaps: style.fontVariantCaps, textShadow: style.textShadow, centred: style.textAlign === 'center',
        }, name).to.deep.equal({
          textTransform: 'none', letterSpacing: 'normal', wordSpacing: '0px', textIndent: '0px',
          fontStyle: 'normal', fontVariantCaps: 'normal', textShadow: 'none', centred: false,
        });
      }
      expect(getComputedStyle(root.querySelector('[part~="bubble--agent"] p')!).fontWeight, 'the reply\'s text').to.equal('400');
      expect(getComputedStyle(part(chat, 'log')!).whiteSpace, 'lines wrap').to.equal('normal');
      // A rule on the element itself still wins (README, "Look").
      chat.style.letterSpacing = '1px';
      expect(getComputedStyle(root.querySelector('[part~="bubble--agent"] p')!).letterSpacing, 'set on the element').to.equal('1px');
    } finally {
      proxy.restore();
    }
  });

  it('a page in quirks mode (no doctype, as on old sites) draws the widget as a page in standards mode does (header, replies, choices, a carousel, ratings, composer): a reply\'s table in its bubble\'s colour, size and line height (the browsers\' quirk gave a table black text at the default size: on a dark bubble, unreadable), the composer at the panel\'s foot (the quirk gave the form a margin under it)', async () => {
    const frames: HTMLIFrameElement[] = [];
    const responses: AgentResponseItem[] = [text(LONG), {
      id: 'BT_1', type: 'buttons', text: 'Pick one', altText: 'Pick one', buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'p' } }],
    } as AgentResponseItem, {
      id: 'CA_1', type: 'carousel', altText: 'Plans',
      cards: ['Basic', 'Pro'].map((title) => ({ title, subtitle: '€9/month', imageUrl: PIXEL, buttons: [{ title: 'Choose', payload: { type: 'node', data: title } }] })),
    } as AgentResponseItem];
    /** The chat in a frame of its own, a site's dark surface and smaller text on a page in the light scheme, its reply's table shown. */
    const open = async (quirks: boolean) => {
      const { frame, win, chat } = await openInFrame(420, 640, responses, `<agent-chat mode="inline" proxy-url="/quirks-${quirks}" feedback
        agent-subtitle="Usually replies at once" agent-avatar="${PIXEL}" style="height:600px;--agent-chat-surface-color:#102030;--agent-chat-font-size:14px"></agent-chat>`, { quirks });
      frames.push(frame);
      expect(win.document.compatMode, quirks ? 'a page without a doctype' : 'a page with one').to.equal(quirks ? 'BackCompat' : 'CSS1Compat');
      await waitUntil(() => chat.shadowRoot?.querySelector('[part~="bubble--agent"] td') && part(chat, 'button') && part(chat, 'card')
        && [...chat.shadowRoot.querySelectorAll('img')].every((img) => img.complete), 'the reply shown, its pictures too', WAIT);
      await chat.updateComplete;
      return { win, chat };
    };
    try {
      const [quirks, standards] = [await open(true), await open(false)];
      const cell = quirks.chat.shadowRoot!.querySelector('[part~="bubble--agent"] td')!;
      const textStyle = (el: Element) => (({ color, fontSize, lineHeight, fontStyle }) => ({ color, fontSize, lineHeight, fontStyle }))(quirks.win.getComputedStyle(el));
      expect(textStyle(cell), 'a cell').to.deep.equal(textStyle(cell.closest('[part~="bubble"]')!));
      // Every element of the widget: its box and what the quirks change.
      const drawn = ({ win, chat }: typeof quirks) => [...chat.shadowRoot!.querySelectorAll('*')].map((el) => {
        const { width, height } = el.getBoundingClientRect();
        const style = win.getComputedStyle(el);
        return `${el.localName}.${el.getAttribute('class')} ${Math.round(width)}×${Math.round(height)} ${['color', 'fontSize', 'lineHeight', 'fontWeight', 'margin', 'padding', 'boxSizing', 'whiteSpace', 'listStylePosition'].map((name) => style[name as 'color']).join(' ')}`;
      });
      expect(drawn(quirks), 'each element as in standards mode').to.deep.equal(drawn(standards));
    } finally {
      frames.forEach((frame) => frame.remove());
    }
  });

  it('a page written vertically (writing-mode: vertical-rl, as Japanese and Mongolian pages may be): the chat is written horizontally, header above the log above the composer (it was turned on its side, its header at the right)', async () => {
    const proxy = new FakeProxy().next(ok(text('こんにちは! How can I help?'), {
      id: 'BT_1', type: 'buttons', text: 'Pick one', altText: 'Pick one', buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'p' } }],
    } as AgentResponseItem));
    try {
      const box = await fixture<HTMLDivElement>(html`<div lang="ja" style="writing-mode: vertical-rl; width: 420px; height: 560px">
        <agent-chat mode="inline" proxy-url=${proxy.url}></agent-chat></div>`);
      const chat = box.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => part(chat, 'button'), 'the reply shown', WAIT);
      await chat.updateComplete;
      const [header, log, composer, bubble] = ['header', 'log', 'composer', 'bubble--agent'].map((name) => part(chat, name)!.getBoundingClientRect());
      expect(getComputedStyle(part(chat, 'bubble--agent')!).writingMode, 'a reply\'s lines').to.equal('horizontal-tb');
      expect([header.bottom <= log.top + 1, log.bottom <= composer.top + 1], 'header, log and composer from top to bottom').to.deep.equal([true, true]);
      expect(bubble.width, 'a reply as wide as its line').to.be.greaterThan(bubble.height);
    } finally {
      proxy.restore();
    }
  });

  it('a page that turns off text selection: the conversation can still be selected and copied (an order number, an address)', async () => {
    const proxy = new FakeProxy().next(ok(text('Your order number is **A-1234**.')));
    try {
      const box = await fixture<HTMLDivElement>(html`<div style="height: 600px; width: 400px; user-select: none; -webkit-user-select: none">
        <agent-chat mode="inline" proxy-url=${proxy.url}></agent-chat></div>`);
      const chat = box.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => chat.shadowRoot!.querySelector('[part~="bubble--agent"] strong'), 'the reply shown', WAIT);
      await chat.updateComplete;
      const bubble = part(chat, 'bubble--agent')!;
      const style = getComputedStyle(bubble) as CSSStyleDeclaration & { webkitUserSelect?: string };
      expect(style.userSelect || style.webkitUserSelect, 'the reply\'s user-select').to.not.equal('none');
      // Selected as a visitor does (WebKit's document selection does not show into a shadow root: there, the style above).
      const selection = getSelection()!;
      selection.removeAllRanges();
      const range = document.createRange();
      range.selectNodeContents(bubble);
      selection.addRange(range);
      if (!navigator.userAgent.includes('AppleWebKit') || navigator.userAgent.includes('Chrome')) {
        expect(selection.toString().trim(), 'what a visitor selects').to.equal('Your order number is A-1234.');
      }
      selection.removeAllRanges();
    } finally {
      proxy.restore();
    }
  });

  it('a page that breaks its words anywhere: the replies\' lines still break between words', async () => {
    const sentence = 'Our support team answers every message within one working day, and usually much sooner than that.';
    const proxy = new FakeProxy().next(ok(text(sentence)));
    try {
      const box = await fixture<HTMLDivElement>(html`<div style="height: 600px; width: 320px; word-break: break-all; line-break: anywhere; hyphens: auto"
        lang="en"><agent-chat mode="inline" proxy-url=${proxy.url}></agent-chat></div>`);
      const chat = box.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => part(chat, 'bubble--agent'), 'the reply shown', WAIT);
      await chat.updateComplete;
      const bubble = part(chat, 'bubble--agent')!;
      expect(lines(bubble), 'a reply of several lines').to.be.above(2);
      expect(brokenWords(bubble), 'words broken across lines').to.deep.equal([]);
    } finally {
      proxy.restore();
    }
  });
});
