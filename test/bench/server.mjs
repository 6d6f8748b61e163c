// The bench's loopback HTTP server (a worker thread of test/bench/run.mjs): the pages, the built
// widget (the shell and every chunk it may load, each fetched only when it does), the naive
// reference, and an agent that answers like the agent service's events API. Posts its base URL (and the
// size of the floor's script).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { launcherSnippet } from '../../dist/server/launcher.js';

const root = new URL('../../', import.meta.url);
// The floor for any widget a script tag loads: a module script of a few hundred bytes that only
// draws a launcher in a shadow root, as the shell does, and nothing else.
const floor = `customElements.define('floor-chat', class extends HTMLElement {
  connectedCallback() {
    const b = document.createElement('button');
    b.setAttribute('part', 'launcher');
    b.textContent = 'Chat';
    b.style.cssText = 'position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%';
    this.attachShadow({ mode: 'open' }).append(b);
  }
});`;
const scripts = { '/naive-chat.js': Buffer.from(workerData.naive), '/floor.js': Buffer.from(floor) };
const distFile = (path) => {
  if (!/^\/(agent-chat[\w-]*\.js|chunks\/[\w-]+\.js)$/.test(path) || path.includes('.node.') || path.includes('/node-')) return undefined;
  try {
    return readFileSync(new URL(`dist${path}`, root));
  } catch {
    return undefined;
  }
};

// Marks when the launcher is first visible (a frame after it has a box), as `window.__launcherAt`,
// and when it first has a box, `__launcherBoxAt`. Idle callbacks are timed (`__idle`: [start,
// duration]), so that work a page does at idle once the launcher is on screen (the shell's first
// read of storage) is not counted as script before the launcher shows.
const watchLauncher = (selector) => `<script>
  const find = () => document.querySelector(${JSON.stringify(selector)});
  const launcher = () => { const host = find(); return host?.shadowRoot?.querySelector('[part~="launcher"]') ?? (host?.matches?.('button') ? host : null); };
  const idle = window.requestIdleCallback;
  window.__idle = [];
  window.requestIdleCallback = (task, options) => idle((deadline) => {
    const start = performance.now();
    try { task(deadline); } finally { window.__idle.push([start, performance.now() - start]); }
  }, options);
  (function poll() {
    const el = launcher();
    if (el && el.getBoundingClientRect().width > 0) {
      window.__launcherBoxAt = performance.now();
      requestAnimationFrame(() => (window.__launcherAt = performance.now()));
    } else requestAnimationFrame(poll);
  })();
</script>`;
const pages = {
  blank: `<!doctype html><html lang="en"><body>${watchLauncher('#launcher')}<button id="launcher" style="position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%">Chat</button></body></html>`,
  widget: `<!doctype html><html lang="en"><body>${watchLauncher('agent-chat')}<script type="module" src="/agent-chat.js"></script><agent-chat proxy-url="/chat"></agent-chat></body></html>`,
  // The same with the launcher in the page's HTML (README, "The launcher before any script").
  snippet: `<!doctype html><html lang="en"><body>${watchLauncher('agent-chat')}<script type="module" src="/agent-chat.js"></script><agent-chat proxy-url="/chat">${launcherSnippet()}</agent-chat></body></html>`,
  // The same, greeted with markdown: the first open loads the markdown chunk too.
  'widget-markdown': `<!doctype html><html lang="en"><body>${watchLauncher('agent-chat')}<script type="module" src="/agent-chat.js"></script><agent-chat proxy-url="/chat?greeting=markdown"></agent-chat></body></html>`,
  floor: `<!doctype html><html lang="en"><body>${watchLauncher('floor-chat')}<script type="module" src="/floor.js"></script><floor-chat></floor-chat></body></html>`,
  naive: `<!doctype html><html lang="en"><body>${watchLauncher('naive-chat')}<script type="module" src="/naive-chat.js"></script><naive-chat></naive-chat></body></html>`,
};

/**
 * Answers like the agent service's events API: a greeting (plain, or with markdown for the page
 * whose proxy URL asks for it), then a short markdown reply to each text.
 */
function agentReply(message, markdownGreeting) {
  const text = message.text !== undefined
    ? `You said: **${message.text}**. More at [the docs](https://example.com/docs).`
    : markdownGreeting ? '**Hello!** How can I help?' : 'Hello! How can I help?';
  return { status: 'ok', result: { responses: [{ id: `TX_${Math.random()}`, type: 'text', options: [text], altText: text }] } };
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/chat' && req.method === 'POST') {
    let body = '';
    for await (const chunk of req) body += chunk;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(agentReply(JSON.parse(body).message, url.searchParams.has('greeting'))));
  } else if (scripts[url.pathname] ?? distFile(url.pathname)) {
    // As a CDN serves a versioned file (…/agent-chat@<version>/dist/…): cached for good. Each cold
    // sample runs in a new browser context, so with an empty cache.
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'public, max-age=31536000, immutable' }).end(scripts[url.pathname] ?? distFile(url.pathname));
  } else if (pages[url.pathname.slice(1)]) {
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(pages[url.pathname.slice(1)]);
  } else res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ base: `http://127.0.0.1:${server.address().port}`, floorBytes: scripts['/floor.js'].length }));
