/**
 * `npm run look`: screenshots of the built widget in the states a visitor meets, for a person to
 * look at (tests prove behaviour; only eyes catch an unreadable table). Debian's Chromium, headless,
 * against a loopback stand-in for the proxy whose behaviour each shot picks. Writes PNGs to
 * test-results/look/ (`LOOK_ONLY=name` takes the shots whose names contain it). Not part of `npm test`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Page } from 'playwright';
import { LONG_REPLY as LONG } from '../support/long-reply.js';

const root = new URL('../../', import.meta.url);
const out = new URL('test-results/look/', root);
mkdirSync(out, { recursive: true });
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';



type Mode = 'ok' | 'down' | 'long' | 'slow' | 'many' | 'themes' | 'picture';
/** How the server serves the rest of the widget (the view): at once, held (the skeleton shows), or not at all. */
let viewServing: 'ok' | 'held' | 'missing' = 'ok';
let releaseView: (() => void) | undefined;
/** In `slow` mode replies wait here until the shot is taken. */
let releaseSlow: (() => void) | undefined;
let mode: Mode = 'ok';
/** A reply with pictures: one on its own (a block of its own), one among words. */
const PICTURE_REPLY = 'Here is how the plans compare:\n\n![A chart of the plans](/plan.svg)\n\nThe ![gear](/gear.svg) button opens the settings.';
const PLAN_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="240"><rect width="480" height="240" fill="#dde6ee"/><rect x="40" y="140" width="80" height="80" fill="#4a7"/><rect x="200" y="80" width="80" height="140" fill="#47a"/><rect x="360" y="30" width="80" height="190" fill="#a47"/></svg>';
const GEAR_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="none" stroke="#555" stroke-width="3"/></svg>';
const reply = (texts: string[]) => ({
  status: 'ok',
  result: { responses: texts.map((t, i) => ({ id: `TX_${i}`, type: 'text', options: [t], altText: t })) },
});

/** The demo's themes (demo/demo.css) as the demo shows them, and two partial themes a site might write. */
const THEMES = `<link rel="stylesheet" href="/demo/demo.css"><style>.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}.grid>div{height:380px}</style>
<div class="grid">
<div><agent-chat class="theme-forest" mode="inline" proxy-url="/chat?w=forest" agent-title="Forest"></agent-chat></div>
<div><agent-chat class="theme-night" mode="inline" proxy-url="/chat?w=night" agent-title="Night" theme="dark"></agent-chat></div>
<div><agent-chat class="theme-paper" mode="inline" proxy-url="/chat?w=paper" agent-title="Paper"></agent-chat></div>
<div><agent-chat style="--agent-chat-accent-color:#0f766e" mode="inline" proxy-url="/chat?w=accent" agent-title="Accent only"></agent-chat></div>
<div><agent-chat style="--agent-chat-surface-color:#102030" mode="inline" proxy-url="/chat?w=surface" agent-title="Dark surface only"></agent-chat></div>
<div><agent-chat mode="inline" proxy-url="/chat?w=default" agent-title="Default"></agent-chat></div>
</div><script type="module" src="/dist/agent-chat.js"></script>`;

function page(dir: string, scheme: string, kind = 'launcher') {
  if (kind === 'themes') {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="${scheme}"><title>themes</title>
<style>body{font-family:system-ui;margin:12px;color-scheme:${scheme}}</style></head><body>${THEMES}</body></html>`;
  }
  if (kind === 'inline') {
    return `<!doctype html><html lang="en" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="color-scheme" content="${scheme}"><title>look</title><style>body{font-family:system-ui;margin:24px;color-scheme:${scheme}} .box{height:420px;max-width:420px}</style></head>
<body><h1>A help page</h1><div class="box"><agent-chat mode="inline" proxy-url="/chat" agent-title="Support"></agent-chat></div>
<h2>Below the chat</h2><p>The host page goes on under the box it gave the chat.</p><script type="module" src="/dist/agent-chat.js"></script></body></html>`;
  }
  return `<!doctype html><html lang="en" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="color-scheme" content="${scheme}"><title>look</title>
<style>body{font-family:system-ui;margin:24px;color-scheme:${scheme}} p{max-width:40em}</style></head>
<body><h1>${dir === 'rtl' ? 'مرحبا بكم في متجرنا' : 'A host page'}</h1><p>${dir === 'rtl' ? 'نص الصفحة المضيفة.' : 'Some host page text.'}</p>
<agent-chat proxy-url="/chat" agent-title="Support" agent-subtitle="Usually replies at once"${kind === 'teaser' ? ' teaser="Questions about your order? Ask us here." teaser-delay="0"' : ''}${kind === 'rich' ? ' feedback' : ''}></agent-chat>
<script type="module" src="/dist/agent-chat.js"></script></body></html>`;
}

const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url!, 'http://x');
  if (url.pathname === '/chat') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { message } = JSON.parse(body);
    res.setHeader('Content-Type', 'application/json');
    if (mode === 'down') {
      res.statusCode = 503;
      return res.end(JSON.stringify({ status: 'error', error: 'down' }));
    }
    if (message.payload?.data === 'greeting' && mode === 'themes') {
      return res.end(JSON.stringify({ status: 'ok', result: { responses: [
        { id: 'TX_0', type: 'text', options: ['Hello! Read **the guide**, [a link](https://example.com), or `code`.'], altText: 'Hello!' },
        { id: 'BT_0', type: 'buttons', text: 'What do you need?', altText: 'What do you need?', buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'p' } }, { title: 'Docs', url: 'https://example.com' }] },
      ] } }));
    }
    if (message.payload?.data === 'greeting') return res.end(JSON.stringify(reply(['Hello! How can I help?'])));
    if (mode === 'slow') await new Promise<void>((resolve) => (releaseSlow = resolve));
    if (mode === 'many') return res.end(JSON.stringify(reply(Array.from({ length: 130 }, (_, i) => `Answer number ${i + 1}`))));
    if (mode === 'picture') return res.end(JSON.stringify(reply([PICTURE_REPLY])));
    return res.end(JSON.stringify(reply(mode === "long" ? [LONG] : [message.text ? `You said: ${message.text}` : "Your order has shipped: it arrives on Thursday."])));
  }
  if (url.pathname.endsWith('.svg')) {
    res.setHeader('Content-Type', 'image/svg+xml');
    return res.end(url.pathname === '/plan.svg' ? PLAN_SVG : GEAR_SVG);
  }
  if (url.pathname === '/demo/demo.css') {
    res.setHeader('Content-Type', 'text/css');
    return res.end(readFileSync(new URL('./demo/demo.css', root)));
  }
  if (url.pathname.startsWith('/dist/')) {
    if (url.pathname === '/dist/agent-chat-view.js' && viewServing === 'missing') return res.writeHead(404).end();
    if (url.pathname === '/dist/agent-chat-view.js' && viewServing === 'held') await new Promise<void>((resolve) => (releaseView = resolve));
    res.setHeader('Content-Type', 'text/javascript');
    return res.end(readFileSync(new URL(`.${url.pathname}`, root)));
  }
  res.setHeader('Content-Type', 'text/html');
  res.end(page(url.searchParams.get('dir') ?? 'ltr', url.searchParams.get('scheme') ?? 'light', url.searchParams.get('page') ?? undefined));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const shadow = (p: Page, selector: string) => p.locator('agent-chat').locator(selector);
const nextFrames = (p: Page) => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The visitor opens the chat and is greeted. */
async function openGreeted(p: Page) {
  await shadow(p, '[part~="launcher"]').click();
  await shadow(p, '[part~="bubble--agent"]').first().waitFor();
}

/** The visitor types `text` and presses Send. */
async function typeAndSend(p: Page, text: string) {
  await shadow(p, '[part~="input"]').fill(text);
  await shadow(p, '[part~="send-button"]').click();
}

/** The visitor asks for a chart: a reply with pictures (the widget follows them as they come). */
async function pictureReply(p: Page) {
  await openGreeted(p);
  mode = 'picture';
  await typeAndSend(p, 'Show me the plans');
  await p.waitForFunction(() => [...document.querySelector('agent-chat')!.shadowRoot!.querySelectorAll('img')].every((i) => i.complete && i.naturalWidth) && document.querySelector('agent-chat')!.shadowRoot!.querySelector('img'));
  await nextFrames(p);
}

/** `story` may open another tab of the site and return it: that tab is the shot. */
async function shot(name: string, options: { width: number; height: number; scale?: number; dark?: boolean; dir?: string; page?: string; forcedColors?: boolean }, story: (p: Page) => Promise<Page | void>) {
  // LOOK_ONLY=inline: only the shots whose names contain it.
  if (!name.includes(process.env.LOOK_ONLY ?? '')) return;
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.height }, deviceScaleFactor: options.scale ?? 1,
    colorScheme: options.dark ? 'dark' : 'light', forcedColors: options.forcedColors ? 'active' : 'none',
  });
  const p = await context.newPage();
  mode = options.page === 'themes' || options.page === 'rich' ? 'themes' : 'ok';
  await p.goto(`${base}/?dir=${options.dir ?? 'ltr'}&scheme=${options.dark ? 'dark' : 'light'}&page=${options.page ?? 'launcher'}`);
  const shown = (await story(p)) ?? p;
  // Opening and closing animate: the shot shows where they end. (Not the typing dots: they never
  // end, and waiting for them lasted until the held request timed out, so the typing shots showed
  // a retry instead.)
  await shown.waitForFunction(() => [...document.querySelectorAll('agent-chat')].every((c) => c.shadowRoot!.getAnimations()
    .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)));
  await shown.screenshot({ path: new URL(`${name}.png`, out).pathname });
  await context.close();
  console.log(`look: test-results/look/${name}.png`);
}

/** `story` on a page whose own CSS zooms the chat by 1.25. */
const cssZoomed = (story: (p: Page) => Promise<Page | void>) => async (p: Page) => {
  await p.addStyleTag({ content: 'agent-chat { zoom: 1.25 }' });
  return story(p);
};

/** The agent is down when the visitor opens the chat; they type anyway. */
async function downAndTyped(p: Page) {
  mode = 'down';
  await shadow(p, '[part~="launcher"]').click();
  await shadow(p, '[part~="error"]').waitFor();
  await typeAndSend(p, 'Do you ship to Greece?');
  await shadow(p, '[part~="message-status--waiting"]').waitFor();
}

/** Greeted; the agent goes down and the visitor sends two messages: one countdown, one Retry now, under the first. */
async function downMidConversation(p: Page) {
  await openGreeted(p);
  mode = 'down';
  for (const text of ['Do you ship to Greece?', 'And to Cyprus?']) await typeAndSend(p, text);
  await shadow(p, '[part~="retry-button"]').waitFor();
  await shadow(p, '[part~="message-status--waiting"]').nth(1).waitFor();
}

async function longReply(p: Page) {
  await openGreeted(p);
  mode = 'long';
  await typeAndSend(p, 'Compare the plans');
  await shadow(p, 'table').waitFor();
  await nextFrames(p); // the scroll to the reply's start happens in the next frame
}

/** The long reply's end, scrolled to: steps numbered on after a paragraph, a task list, a long URL. */
async function longReplyEnd(p: Page) {
  await longReply(p);
  await p.evaluate(() => {
    const log = document.querySelector('agent-chat')!.shadowRoot!.querySelector('.log')!;
    log.scrollTop = log.scrollHeight;
  });
  await nextFrames(p);
}

/**
 * An inline chat whose conversation is longer than its box: the log scrolls inside the box, the
 * newest message shows at its foot, and the page under the box is untouched (once, since the
 * shell/view split, the panel grew with the conversation over it).
 */
async function inlineLong(p: Page) {
  await shadow(p, '[part~="bubble--agent"]').first().waitFor();
  mode = 'long';
  await typeAndSend(p, 'Compare the plans');
  await shadow(p, 'table').waitFor();
  mode = 'ok';
  await typeAndSend(p, 'Thanks!');
  await shadow(p, '[part~="bubble--agent"]').nth(2).waitFor();
  await nextFrames(p);
}

/** A request in flight: the typing indicator says the agent is typing; a second message waits. */
async function typing(p: Page) {
  await openGreeted(p);
  mode = 'slow';
  for (const text of ['Where is my order?', 'It was placed on Monday']) await typeAndSend(p, text);
  await shadow(p, '[part~="typing"]').waitFor();
}

async function unread(p: Page) {
  await openGreeted(p);
  for (let i = 0; i < 8; i++) {
    await typeAndSend(p, `Question ${i + 1}`);
    await shadow(p, `[part~="bubble--agent"] >> text="You said: Question ${i + 1}"`).waitFor();
  }
  await shadow(p, '[part~="log"]').evaluate((log) => new Promise((resolve) => {
    log.addEventListener('scroll', resolve, { once: true });
    log.scrollTop = 0;
  }));
  // A reply arrives while they read further up: sent from the page, as a tab would.
  await p.evaluate(() => (document.querySelector('agent-chat') as unknown as { postback: (p: unknown, t?: string) => void }).postback({ type: 'node', data: 'x' }));
  await shadow(p, '[part~="new-messages-button"]').waitFor();
}

/** A long conversation scrolled to its top: the newest ~100 entries are in the page, the control brings the rest. */
async function longConversation(p: Page) {
  await openGreeted(p);
  mode = 'many';
  await typeAndSend(p, 'Tell me everything');
  await shadow(p, '[part~="bubble--agent"] >> text="Answer number 130"').waitFor();
  // The log keeps its newest 100 entries once the visitor sends again (not while replies arrive).
  mode = 'ok';
  await typeAndSend(p, 'Thanks');
  await shadow(p, '[part~="earlier-button"]').waitFor();
  await shadow(p, '[part~="earlier-button"]').evaluate((button) => button.scrollIntoView());
  await nextFrames(p);
}

/** The visitor pressed "new conversation": a few seconds to take it back. */
async function restarted(p: Page) {
  await openGreeted(p);
  await typeAndSend(p, 'Where is my order?');
  await shadow(p, '[part~="bubble--agent"] >> text="You said: Where is my order?"').waitFor();
  await shadow(p, '[part~="restart-button"]').click();
  await shadow(p, '[part~="undo-button"]').waitFor();
}

/** The visitor clicks before the rest of the widget has arrived: the panel's skeleton. */
async function skeleton(p: Page) {
  viewServing = 'held';
  await shadow(p, '[part~="launcher"]').click();
  await shadow(p, '[part~="panel"][aria-busy="true"]').waitFor();
}

/** …and types at once: the words in the skeleton's text area until the input takes them. */
async function skeletonTyped(p: Page) {
  await skeleton(p);
  await p.keyboard.type('Where is my order? I ordered it on Monday and');
}

/** The rest of the widget cannot be loaded (offline, or not published next to the script). */
async function unloadable(p: Page) {
  viewServing = 'missing';
  await shadow(p, '[part~="launcher"]').click();
  await shadow(p, '[part~="error"]').waitFor();
}

async function badge(p: Page) {
  await openGreeted(p);
  await shadow(p, '[part~="launcher"]').click();
  await p.evaluate(() => (document.querySelector('agent-chat') as unknown as { postback: (p: unknown) => void }).postback({ type: 'node', data: 'x' }));
  await shadow(p, '[part~="badge"]').waitFor();
}

/** With feedback: a choice clicked (its turn answered), the reply rated. */
async function answered(p: Page) {
  await shadow(p, '[part~="launcher"]').click();
  await shadow(p, '[part~="button"] >> text="Pricing"').click();
  await shadow(p, '[part~="button--chosen"]').waitFor();
  await shadow(p, '[part~="feedback-button--up"]').last().click();
  await shadow(p, '[part~="feedback"] >> text="Thanks for your feedback."').waitFor();
}

/** A long draft typed, the page reloaded: the chat opened again shows it in the composer. */
async function draftAfterReload(p: Page) {
  await openGreeted(p);
  await shadow(p, '[part~="input"]').fill('Do you ship to Greece, and how long does it take to Thessaloniki? We would need it before');
  await p.reload();
  await openGreeted(p);
  await shadow(p, '[part~="input"]').focus();
}

/**
 * The visitor chatted, typed a draft, and followed a link of the site with the panel open: the next
 * page shows the panel open, the draft in it, nothing clicked there (the focus with the page).
 */
async function reopenedOnNextPage(p: Page) {
  await openGreeted(p);
  await typeAndSend(p, 'Where is my order?');
  await shadow(p, '[part~="bubble--agent"] >> text="You said: Where is my order?"').waitFor();
  await shadow(p, '[part~="input"]').fill('And can I change the address');
  // A link of the page (it takes the focus from the panel), as a navigation the page makes: the
  // next page's referrer is this one.
  await shadow(p, '[part~="input"]').blur();
  await Promise.all([p.waitForNavigation(), p.evaluate(() => location.assign(`${location.href}&next`))]);
  await shadow(p, '[part~="bubble--agent"] >> text="You said: Where is my order?"').waitFor();
  await nextFrames(p);
}

/** The site's teaser beside the launcher, a moment after the page loaded. */
async function teaser(p: Page) {
  await shadow(p, '[part~="teaser"]').waitFor();
  await nextFrames(p);
}

/** The agent is down; a second tab of the site is opened while the first retries the greeting, and the visitor types there. */
async function secondTabWhileDown(p: Page) {
  mode = 'down';
  await shadow(p, '[part~="launcher"]').click();
  await shadow(p, '[part~="error"]').waitFor();
  const second = await p.context().newPage();
  await second.goto(p.url());
  await shadow(second, '[part~="launcher"]').click();
  await shadow(second, '[part~="error"]').waitFor();
  await typeAndSend(second, 'Do you ship to Greece?');
  await shadow(second, '[part~="message-status--waiting"]').waitFor();
  return second;
}

/** Every widget of the themes page greeted, its choices shown. */
async function themesGreeted(p: Page) {
  await p.waitForFunction(() => [...document.querySelectorAll('agent-chat')].every((c) => c.shadowRoot?.querySelector('[part~="button"]')));
}

try {
  await shot('desktop-answered', { width: 1280, height: 800, page: 'rich' }, answered);
  await shot('phone-320-answered', { width: 320, height: 640, page: 'rich' }, answered);
  await shot('dark-answered', { width: 1280, height: 800, page: 'rich', dark: true }, answered);
  // Windows' contrast themes (forced colours): no backgrounds or shadows but the system's.
  await shot('forced-colors-answered', { width: 1280, height: 800, page: 'rich', forcedColors: true }, answered);
  await shot('forced-colors-dark-agent-down', { width: 1280, height: 800, dark: true, forcedColors: true }, downMidConversation);
  await shot('rtl-answered', { width: 1280, height: 800, page: 'rich', dir: 'rtl' }, answered);
  await shot('desktop-draft', { width: 1280, height: 800 }, draftAfterReload);
  await shot('phone-320-draft', { width: 320, height: 640, dir: 'rtl' }, draftAfterReload);
  await shot('dark-draft', { width: 1280, height: 800, dark: true }, draftAfterReload);
  await shot('zoom-200-draft', { width: 640, height: 400, scale: 2 }, draftAfterReload);
  await shot('desktop-reopened', { width: 1280, height: 800 }, reopenedOnNextPage);
  await shot('dark-reopened', { width: 1280, height: 800, dark: true, dir: 'rtl' }, reopenedOnNextPage);
  await shot('desktop-teaser', { width: 1280, height: 800, page: 'teaser' }, teaser);
  await shot('phone-320-teaser', { width: 320, height: 640, page: 'teaser', dir: 'rtl' }, teaser);
  await shot('dark-teaser', { width: 1280, height: 800, page: 'teaser', dark: true }, teaser);
  await shot('themes-light', { width: 1280, height: 820, page: 'themes' }, themesGreeted);
  await shot('themes-dark', { width: 1280, height: 820, page: 'themes', dark: true }, themesGreeted);
  await shot('desktop-agent-down', { width: 1280, height: 800 }, downAndTyped);
  await shot('phone-320-agent-down', { width: 320, height: 640 }, downAndTyped);
  await shot('dark-agent-down', { width: 1280, height: 800, dark: true }, downAndTyped);
  await shot('rtl-agent-down', { width: 1280, height: 800, dir: 'rtl' }, downAndTyped);
  await shot('zoom-200-agent-down', { width: 640, height: 400, scale: 2 }, downAndTyped);
  await shot('desktop-down-mid-conversation', { width: 1280, height: 800 }, downMidConversation);
  await shot('phone-320-down-mid-conversation', { width: 320, height: 640 }, downMidConversation);
  await shot('desktop-second-tab-down', { width: 1280, height: 800 }, secondTabWhileDown);
  await shot('phone-320-second-tab-down', { width: 320, height: 640 }, secondTabWhileDown);
  await shot('desktop-inline-long', { width: 1280, height: 800, page: 'inline' }, inlineLong);
  await shot('phone-320-inline-long', { width: 320, height: 640, page: 'inline' }, inlineLong);
  await shot('dark-inline-long', { width: 1280, height: 800, page: 'inline', dark: true, dir: 'rtl' }, inlineLong);
  await shot('desktop-long-reply', { width: 1280, height: 800 }, longReply);
  await shot('phone-320-long-reply', { width: 320, height: 640 }, longReply);
  await shot('dark-long-reply', { width: 1280, height: 800, dark: true }, longReply);
  await shot('rtl-long-reply', { width: 1280, height: 800, dir: 'rtl' }, longReply);
  await shot('zoom-200-long-reply', { width: 640, height: 400, scale: 2 }, longReply);
  await shot('desktop-long-reply-end', { width: 1280, height: 800 }, longReplyEnd);
  await shot('phone-320-long-reply-end', { width: 320, height: 640 }, longReplyEnd);
  await shot('dark-long-reply-end', { width: 1280, height: 800, dark: true, dir: 'rtl' }, longReplyEnd);
  // A site that zooms the chat itself (CSS zoom on the element), in a laptop's window and on a phone.
  await shot('css-zoom-125-long-reply', { width: 800, height: 600 }, cssZoomed(longReply));
  await shot('phone-320-css-zoom-125-long-reply', { width: 320, height: 640 }, cssZoomed(longReply));
  await shot('desktop-picture', { width: 1280, height: 800 }, pictureReply);
  await shot('phone-320-picture', { width: 320, height: 640 }, pictureReply);
  await shot('dark-picture', { width: 1280, height: 800, dark: true, dir: 'rtl' }, pictureReply);
  await shot('desktop-new-messages', { width: 1280, height: 800 }, unread);
  await shot('desktop-typing', { width: 1280, height: 800 }, typing);
  releaseSlow?.();
  await shot('dark-typing', { width: 1280, height: 800, dark: true }, typing);
  releaseSlow?.();
  await shot('rtl-typing', { width: 1280, height: 800, dir: 'rtl' }, typing);
  releaseSlow?.();
  await shot('desktop-badge', { width: 1280, height: 800 }, badge);
  await shot('dark-badge', { width: 1280, height: 800, dark: true }, badge);
  await shot('desktop-earlier', { width: 1280, height: 800 }, longConversation);
  await shot('dark-earlier', { width: 1280, height: 800, dark: true }, longConversation);
  await shot('desktop-restarted', { width: 1280, height: 800 }, restarted);
  await shot('dark-restarted', { width: 1280, height: 800, dark: true }, restarted);
  await shot('rtl-restarted', { width: 1280, height: 800, dir: 'rtl' }, restarted);
  // The view held for each, then let go (the next shot's page loads it anew).
  for (const [name, options, story] of [
    ['desktop-skeleton', { width: 1280, height: 800 }, skeleton],
    ['phone-320-skeleton', { width: 320, height: 640 }, skeleton],
    ['phone-320-skeleton-typed', { width: 320, height: 640 }, skeletonTyped],
    ['dark-skeleton-typed', { width: 1280, height: 800, dark: true }, skeletonTyped],
    ['rtl-skeleton-typed', { width: 1280, height: 800, dir: 'rtl' }, skeletonTyped],
    ['zoom-200-skeleton-typed', { width: 640, height: 400, scale: 2 }, skeletonTyped],
  ] as const) {
    await shot(name, options, story);
    releaseView?.();
  }
  await shot('desktop-unloadable', { width: 1280, height: 800 }, unloadable);
  await shot('dark-unloadable', { width: 1280, height: 800, dark: true }, unloadable);
  await shot('phone-320-unloadable', { width: 320, height: 640 }, unloadable);
  await shot('rtl-unloadable', { width: 1280, height: 800, dir: 'rtl' }, unloadable);
  await shot('zoom-200-unloadable', { width: 640, height: 400, scale: 2 }, unloadable);
  // Inline, the rest loads at once: here it cannot; the panel that says so fills the box.
  viewServing = 'missing';
  await shot('desktop-inline-unloadable', { width: 1280, height: 800, page: 'inline' }, (p) => shadow(p, '[part~="error"]').waitFor());
  viewServing = 'ok';
} finally {
  await browser.close();
  server.close();
}
