// `npm run bench`: what a visitor feels, measured on the built widget in Chromium through its UI,
// against a loopback HTTP server that answers like the agent service. The conversation is built by
// sending messages (no seeded storage, no stubbed fetch). Every figure is the median and range of
// SAMPLES samples, next to the same figure for a naive reference (a bare Lit element that re-renders
// the whole list with marked + DOMPurify) measured in the same run.
//
// It also writes a CPU profile (CDP Profiler) and a heap snapshot at 1,000 messages to
// test-results/bench/ and prints where the time and the memory go. Goals are printed, not enforced:
// these machines are noisy (the size budgets are the hard gate, in the tests).
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const LEVELS = (process.env.BENCH_LEVELS ?? '50,1000,2000').split(',').map(Number);
const root = new URL('../../', import.meta.url);
const out = new URL('test-results/bench/', root);
mkdirSync(out, { recursive: true });
const executablePath = [process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium'].find((p) => p && existsSync(p));

// --- the pages -------------------------------------------------------------------------------------
const naive = await build({
  entryPoints: [new URL('naive-chat.ts', import.meta.url).pathname], bundle: true, minify: true, format: 'esm', write: false,
  target: 'es2022', tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
});
const scripts = { '/naive-chat.js': Buffer.from(naive.outputFiles[0].contents) };
// The widget as published: the shell and every chunk it may load (each fetched only when it does).
const distFile = (path) => {
  if (!/^\/(agent-chat[\w-]*\.js|chunks\/[\w-]+\.js)$/.test(path) || path.includes('.node.') || path.includes('/node-')) return undefined;
  try {
    return readFileSync(new URL(`dist${path}`, root));
  } catch {
    return undefined;
  }
};

// Marks when the launcher is first visible (a frame after it has a box), as `window.__launcherAt`.
const watchLauncher = (selector) => `<script>
  const find = () => document.querySelector(${JSON.stringify(selector)});
  const launcher = () => { const host = find(); return host?.shadowRoot?.querySelector('[part~="launcher"]') ?? (host?.matches?.('button') ? host : null); };
  (function poll() {
    const el = launcher();
    if (el && el.getBoundingClientRect().width > 0) requestAnimationFrame(() => (window.__launcherAt = performance.now()));
    else requestAnimationFrame(poll);
  })();
</script>`;
const pages = {
  blank: `<!doctype html><html lang="en"><body>${watchLauncher('#launcher')}<button id="launcher" style="position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%">Chat</button></body></html>`,
  widget: `<!doctype html><html lang="en"><body>${watchLauncher('agent-chat')}<script type="module" src="/agent-chat.js"></script><agent-chat proxy-url="/chat"></agent-chat></body></html>`,
  naive: `<!doctype html><html lang="en"><body>${watchLauncher('naive-chat')}<script type="module" src="/naive-chat.js"></script><naive-chat></naive-chat></body></html>`,
};

/** Answers like the agent service's events API: a greeting, then a short markdown reply to each text. */
function agentReply(message) {
  const text = message.text !== undefined
    ? `You said: **${message.text}**. More at [the docs](https://example.com/docs).`
    : 'Hello! How can I help?';
  return { status: 'ok', result: { responses: [{ id: `TX_${Math.random()}`, type: 'text', options: [text], altText: text }] } };
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/chat' && req.method === 'POST') {
    let body = '';
    for await (const chunk of req) body += chunk;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(agentReply(JSON.parse(body).message)));
  } else if (scripts[url.pathname] ?? distFile(url.pathname)) {
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' }).end(scripts[url.pathname] ?? distFile(url.pathname));
  } else if (pages[url.pathname.slice(1)]) {
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(pages[url.pathname.slice(1)]);
  } else res.writeHead(404).end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--js-flags=--expose-gc'],
});

// --- statistics --------------------------------------------------------------------------------------
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted.at(-1), n: sorted.length };
};
const fmt = (s, unit = 'ms', digits = 1) => `${s.median.toFixed(digits)} ${unit} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
const ratio = (a, b) => (b.median ? `${(a.median / b.median).toFixed(2)}×` : '—');

// --- in-page helpers (run inside the page) -----------------------------------------------------------
const HOST = { widget: 'agent-chat', naive: 'naive-chat' };

/** Types `text` and clicks Send inside `host`, as a visitor; resolves with the timings. */
function sendInPage([hostSelector, text]) {
  const host = document.querySelector(hostSelector);
  const root = host.shadowRoot;
  // Looks only at what was added, so the measurement does not grow with the log it measures.
  const isReply = (node) => node.nodeType === 1 && (node.matches('[part~="bubble--agent"]') || node.querySelector('[part~="bubble--agent"]'));
  // The composer comes after the log: found once, or finding it would grow with the log.
  const composer = (window.__composer ??= { input: root.querySelector('[part~="input"]'), send: root.querySelector('[part~="send-button"]') });
  const input = composer.input;
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  return new Promise((resolve) => {
    // Lit renders the draft in a microtask: click once the button is enabled.
    queueMicrotask(() => {
      const start = performance.now();
      const observer = new MutationObserver((records) => {
        if (!records.some((r) => [...r.addedNodes].some(isReply))) return;
        observer.disconnect();
        const inDom = performance.now();
        // The next frame after the reply: rAF runs before paint; a task posted from it runs after.
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve({ inDom: inDom - start, frame: performance.now() - start });
          channel.port2.postMessage(0);
        });
      });
      observer.observe(root, { childList: true, subtree: true });
      composer.send.click();
    });
  });
}

async function openPage(context, variant) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${base}/${variant}`);
  await page.waitForFunction(() => window.__launcherAt !== undefined);
  return { page, cdp };
}

// --- startup -----------------------------------------------------------------------------------------
async function startup(variant) {
  const at = [];
  const script = [];
  const bytes = [];
  for (let i = 0; i < SAMPLES; i++) {
    const context = await browser.newContext();
    const { page, cdp } = await openPage(context, variant);
    at.push(await page.evaluate(() => window.__launcherAt));
    const { metrics } = await cdp.send('Performance.getMetrics');
    script.push(metrics.find((m) => m.name === 'ScriptDuration').value * 1000);
    bytes.push(await page.evaluate(() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
      .reduce((n, e) => n + (e.encodedBodySize || 0), 0)));
    await context.close();
  }
  return { at: stats(at), script: stats(script), bytes: stats(bytes) };
}

// --- first open --------------------------------------------------------------------------------------
async function firstOpen(variant, { hoverFirst }) {
  const panel = [];
  const greeting = [];
  for (let i = 0; i < SAMPLES; i++) {
    const context = await browser.newContext();
    const { page } = await openPage(context, variant);
    const launcher = page.locator(`${HOST[variant]} [part~="launcher"]`);
    if (hoverFirst) {
      await launcher.hover();
      await page.waitForLoadState('networkidle');
    }
    const times = await page.evaluate((selector) => new Promise((resolve) => {
      const root = document.querySelector(selector).shadowRoot;
      const start = performance.now();
      let panelAt;
      (function poll() {
        const panelEl = root.querySelector('[part~="panel"]');
        if (panelAt === undefined && panelEl && !panelEl.hidden && panelEl.getBoundingClientRect().height > 0) panelAt = performance.now() - start;
        if (root.querySelector('[part~="bubble--agent"]')) return resolve({ panel: panelAt ?? performance.now() - start, greeting: performance.now() - start });
        requestAnimationFrame(poll);
      })();
      root.querySelector('[part~="launcher"]').click();
    }), HOST[variant]);
    panel.push(times.panel);
    greeting.push(times.greeting);
    await context.close();
  }
  return { panel: stats(panel), greeting: stats(greeting) };
}

// --- long conversations ------------------------------------------------------------------------------
async function conversation(variant, { profileAt } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, cdp } = await openPage(context, variant);
  await page.locator(`${HOST[variant]} [part~="launcher"]`).click();
  await page.waitForFunction((s) => document.querySelector(s).shadowRoot.querySelector('[part~="bubble--agent"]'), HOST[variant]);
  const messages = () => page.evaluate((s) => document.querySelector(s).shadowRoot.querySelectorAll('[part~="message"]').length, HOST[variant]);
  const rows = [];
  let sent = 0;
  for (const level of LEVELS) {
    // Build up to the level by sending, as a visitor does (each send adds the message and its reply).
    // Counted in the conversation (the greeting, then two per send), not in the DOM: the widget
    // keeps only the newest entries there.
    while (1 + 2 * sent < level) await page.evaluate(sendInPage, [HOST[variant], `message ${++sent}`]);
    const profiling = profileAt === level;
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, { categories: ['devtools.timeline'] });
    }
    const inDom = [];
    const frame = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t = await page.evaluate(sendInPage, [HOST[variant], `sample ${++sent}`]);
      inDom.push(t.inDom);
      frame.push(t.frame);
    }
    let hot;
    let renderer;
    if (profiling) {
      const trace = await browser.stopTracing();
      writeFileSync(new URL(`${variant}-${level}.trace.json`, out), trace);
      renderer = rendererWork(JSON.parse(trace.toString()));
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(new URL(`${variant}-${level}.cpuprofile`, out), JSON.stringify(profile));
      hot = hotFunctions(profile);
    }
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    let heapTop;
    if (profiling) heapTop = await heapSnapshot(cdp, `${variant}-${level}.heapsnapshot`);
    rows.push({ level, messages: 1 + 2 * sent, shown: await messages(), inDom: stats(inDom), frame: stats(frame), heap: usedSize, nodes, hot, heapTop, renderer });
  }
  await context.close();
  return rows;
}

/** Time per kind of renderer work in a devtools.timeline trace (style, layout, paint, script…), biggest first. */
function rendererWork(trace, top = 8) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const kinds = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'FunctionCall', 'EventDispatch', 'TimerFire', 'HitTest', 'RecalculateStyles', 'ScheduleStyleRecalculation', 'IntersectionObserverController::computeIntersections'];
  const totals = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !kinds.includes(e.name)) continue;
    totals.set(e.name, (totals.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
}

/** Self time per function from a CPU profile, biggest first. */
function hotFunctions(profile, top = 8) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id);
    const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').pop()}:${callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return { total, top: [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top) };
}

/** Takes a heap snapshot, writes it, and sums self sizes per constructor name. */
async function heapSnapshot(cdp, file, top = 8) {
  let json = '';
  const onChunk = ({ chunk }) => (json += chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  writeFileSync(new URL(file, out), json);
  const snapshot = JSON.parse(json);
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const sizes = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]];
    const name = type === 'object' || type === 'native' ? snapshot.strings[snapshot.nodes[i + nameAt]] : `(${type})`;
    sizes.set(name, (sizes.get(name) ?? 0) + snapshot.nodes[i + sizeAt]);
  }
  return [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
}

// --- run and report ----------------------------------------------------------------------------------
try {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`agent-chat bench: Chromium, loopback HTTP, ${SAMPLES} samples per figure (median (min–max)); naive = a bare Lit element re-rendering the whole list with marked + DOMPurify\n`);

  const [blank, widgetStart, naiveStart] = [await startup('blank'), await startup('widget'), await startup('naive')];
  const over = (s) => ({ ...s, median: s.median - blank.at.median, min: s.min - blank.at.median, max: s.max - blank.at.median });
  console.log('startup (navigation → launcher visible)');
  console.log(`  blank page:            ${fmt(blank.at)}`);
  console.log(`  widget:                ${fmt(widgetStart.at)}  = blank + ${fmt(over(widgetStart.at))}  naive ${fmt(naiveStart.at)} → ${ratio(widgetStart.at, naiveStart.at)}   goal: ≤ blank + 10 ms`);
  console.log(`  script before it:      widget ${fmt(widgetStart.script)}  naive ${fmt(naiveStart.script)} → ${ratio(widgetStart.script, naiveStart.script)}`);
  console.log(`  bytes before any use:  widget ${kb(widgetStart.bytes.median)}  naive ${kb(naiveStart.bytes.median)} → ${ratio(widgetStart.bytes, naiveStart.bytes)} (decoded bodies)\n`);

  console.log('first open (launcher click → panel visible / → greeting reply visible)');
  for (const [label, hoverFirst] of [['cold', false], ['after hovering (prefetch on intent)', true]]) {
    const w = await firstOpen('widget', { hoverFirst });
    const n = await firstOpen('naive', { hoverFirst });
    console.log(`  ${label}: panel ${fmt(w.panel)} (naive ${ratio(w.panel, n.panel)}), greeting ${fmt(w.greeting)} (naive ${ratio(w.greeting, n.greeting)})`);
  }
  console.log('');

  const widgetRows = await conversation('widget', { profileAt: 1000 });
  const naiveRows = await conversation('naive');
  console.log('a conversation built by sending (send → reply in the DOM / → next frame; JS heap after GC; DOM nodes)');
  widgetRows.forEach((w, i) => {
    const n = naiveRows[i];
    console.log(`  ${String(w.messages).padStart(5)} messages (widget: ${w.shown} in the DOM; naive: ${n.shown}):`);
    console.log(`     reply in DOM  ${fmt(w.inDom)}   naive ${fmt(n.inDom)} → ${ratio(w.inDom, n.inDom)}`);
    console.log(`     next frame    ${fmt(w.frame)}   naive ${fmt(n.frame)} → ${ratio(w.frame, n.frame)}`);
    console.log(`     heap after GC ${(w.heap / 1048576).toFixed(2)} MB   naive ${(n.heap / 1048576).toFixed(2)} MB → ${(w.heap / n.heap).toFixed(2)}×`);
    console.log(`     DOM nodes     ${w.nodes}   naive ${n.nodes} → ${(w.nodes / n.nodes).toFixed(2)}×`);
  });
  const first = widgetRows[0];
  const last = widgetRows.at(-1);
  const at1000 = widgetRows.find((r) => r.level === 1000);
  const growth = (a, b) => `${(((b - a) / a) * 100).toFixed(0)} %`;
  console.log('\ngoals (this 2-core machine)');
  if (at1000) {
    console.log(`  at 1,000: reply in DOM ${at1000.inDom.median.toFixed(1)} ms (goal ≤ 8), next frame ${at1000.frame.median.toFixed(1)} ms (goal ≤ 20), heap ${(at1000.heap / 1048576).toFixed(2)} MB (goal ≤ 3)`);
  }
  console.log(`  growth ${first.level} → ${last.level}: reply in DOM ${growth(first.inDom.median, last.inDom.median)}, next frame ${growth(first.frame.median, last.frame.median)}, heap ${growth(first.heap, last.heap)}, DOM nodes ${growth(first.nodes, last.nodes)} (goal: each ≤ 25 %)`);
  console.log(`  startup over the blank page: ${over(widgetStart.at).median.toFixed(1)} ms (goal ≤ 10)`);

  if (at1000?.hot) {
    console.log(`\nwhere the time goes at 1,000 messages (CPU profile, ${SAMPLES} sends, ${at1000.hot.total.toFixed(0)} ms sampled; test-results/bench/widget-1000.cpuprofile):`);
    for (const [fn, ms] of at1000.hot.top) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${fn}`);
    console.log(`renderer work in the same sends (devtools.timeline trace; test-results/bench/widget-1000.trace.json; nested events overlap):`);
    for (const [name, ms] of at1000.renderer) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name}`);
    console.log('where the memory goes at 1,000 messages (heap snapshot, self size by constructor; test-results/bench/widget-1000.heapsnapshot):');
    for (const [name, bytes] of at1000.heapTop) console.log(`  ${kb(bytes).padStart(9)}  ${name}`);
  }
} finally {
  await browser.close();
  server.close();
}
