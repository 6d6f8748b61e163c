// `npm run bench`: what a visitor feels, measured on the built widget in Chromium through its UI,
// against a loopback HTTP server that answers like the agent service. The conversation is built by
// sending messages (no seeded storage, no stubbed fetch). Every figure is the median and range of
// SAMPLES samples, next to the same figure for a naive reference (a bare Lit element that re-renders
// the whole list with marked + DOMPurify) measured in the same run.
//
// It also writes a CPU profile (CDP Profiler) and a heap snapshot at its last level to
// test-results/bench/ and prints where the time and the memory go. Goals are printed, not enforced:
// these machines are noisy (the size budgets are the hard gate, in the tests).
import { build } from 'esbuild';
import { Worker } from 'node:worker_threads';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright';
import { listFrom, numberFrom, oneOf } from '../support/env.mjs';
import { codeByModule } from './code-by-module.mjs';

const SAMPLES = numberFrom('BENCH_SAMPLES', 20, { min: 1 });
const LEVELS = listFrom('BENCH_LEVELS', ['50', '1000', '2000']).map((level) => {
  if (!/^\d+$/.test(level) || +level < 1) throw new Error(`BENCH_LEVELS: "${level}" is not a count of messages`);
  return +level;
});
// The level after whose figures the CPU profile, the trace and the heap snapshot are taken: the
// last, because a CPU profile leaves ~60 KB in the page's heap for good (V8 keeps what it needs to
// name every function's code once it has been profiled; measured), which a later level's heap
// figure would count as the widget's.
const PROFILE_AT = numberFrom('BENCH_PROFILE_AT', LEVELS.at(-1), { min: 1 });
/** BENCH_ONLY=conversation, startup or first-open: those figures alone. */
const ONLY = oneOf('BENCH_ONLY', ['conversation', 'startup', 'first-open']);
const root = new URL('../../', import.meta.url);
const out = new URL('test-results/bench/', root);
mkdirSync(out, { recursive: true });
const executablePath = [process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium'].find((p) => p && existsSync(p));

// --- the pages and the agent ------------------------------------------------------------------------
const naive = await build({
  entryPoints: [new URL('naive-chat.ts', import.meta.url).pathname], bundle: true, minify: true, format: 'esm', write: false,
  target: 'es2022', tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
});
// The server runs in a thread of its own: in this one, Playwright's traffic with the browser held
// its answers back (~30 ms for the shell's script at startup, measured in a trace), which counted
// as the widget's time.
const server = new Worker(new URL('server.mjs', import.meta.url), { workerData: { naive: naive.outputFiles[0].contents } });
const { base, floorBytes } = await new Promise((resolve, reject) => {
  server.once('message', resolve);
  server.once('error', reject);
});

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
// A ratio of two costs; none when either is not a cost (a page over the blank one by ≤ 0 ms is noise).
const ratio = (a, b) => (a.median > 0 && b.median > 0 ? `${(a.median / b.median).toFixed(2)}×` : '—');

// --- in-page helpers (run inside the page) -----------------------------------------------------------
const HOST = { widget: 'agent-chat', 'widget-markdown': 'agent-chat', naive: 'naive-chat' };

/**
 * Types `text` and clicks Send inside `host`, as a visitor; resolves with the timings. With
 * `annotate`, the real `fetch` and `Response.json` are wrapped for this send to timestamp where the
 * page calls `fetch` and where the reply's JSON is parsed: how much of send → DOM is the page's own
 * script (before the request goes out, after the reply is parsed) and how much the browser's network
 * path. Annotated sends are sends of their own, after the timed ones.
 */
function sendInPage([hostSelector, text, annotate]) {
  const host = document.querySelector(hostSelector);
  const root = host.shadowRoot;
  // Looks only at what was added, so the measurement does not grow with the log it measures.
  const isReply = (node) => node.nodeType === 1 && (node.matches('[part~="bubble--agent"]') || node.querySelector('[part~="bubble--agent"]'));
  // The composer comes after the log: found once, or finding it would grow with the log.
  const composer = (window.__composer ??= { input: root.querySelector('[part~="input"]'), send: root.querySelector('[part~="send-button"]') });
  const input = composer.input;
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  // As when a visitor types, what they typed is on screen before they click Send: click once the
  // draft has been painted (a task posted from rAF runs after the frame). Clicking in the task that
  // set the draft made the click pay for the draft's style and layout, which no visitor's click does.
  const afterPaint = (then) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = then;
    channel.port2.postMessage(0);
  });
  return new Promise((resolve) => {
    afterPaint(() => {
      const marks = {};
      const { fetch: realFetch } = window;
      const { json: realJson } = Response.prototype;
      if (annotate) {
        window.fetch = (...args) => ((marks.fetch = performance.now()), realFetch(...args));
        Response.prototype.json = function () {
          return realJson.call(this).then((value) => ((marks.parsed = performance.now()), value));
        };
      }
      const start = performance.now();
      const observer = new MutationObserver((records) => {
        if (!records.some((r) => [...r.addedNodes].some(isReply))) return;
        observer.disconnect();
        const inDom = performance.now();
        if (annotate) {
          window.fetch = realFetch;
          Response.prototype.json = realJson;
          return resolve({ before: marks.fetch - start, network: marks.parsed - marks.fetch, after: inDom - marks.parsed });
        }
        // The next frame after the reply.
        afterPaint(() => resolve({ inDom: inDom - start, frame: performance.now() - start }));
      });
      observer.observe(root, { childList: true, subtree: true });
      composer.send.click();
    });
  });
}

// The page is driven with `page.evaluate`, CDP and real mouse input only: Playwright's locators and
// `waitForFunction` inject its selector engine into the page (two copies of a 330 KB script and
// their compiled code, ~1 MB), which the heap figures would count as the widget's.

/** Resolves once `predicate` (run in the page, with `arg`) is true, checked every frame. */
const untilInPage = (page, predicate, arg) =>
  page.evaluate(([source, arg]) => new Promise((resolve) => {
    const check = new Function('arg', `return (${source})(arg)`);
    (function poll() {
      if (check(arg)) resolve();
      else requestAnimationFrame(poll);
    })();
  }), [predicate.toString(), arg]);

/** The centre of the launcher inside `hostSelector`, for real pointer input. */
const launcherCentre = (page, hostSelector) =>
  page.evaluate((s) => {
    const box = document.querySelector(s).shadowRoot.querySelector('[part~="launcher"]').getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }, hostSelector);

async function openPage(context, variant) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${base}/${variant}`);
  await untilInPage(page, () => window.__launcherAt !== undefined);
  return { page, cdp };
}

// --- startup -----------------------------------------------------------------------------------------
/**
 * One load of `variant`: when its launcher became visible, the script run before, the bytes loaded.
 * Cold: a visitor's first page view (a new browser context, an empty cache). Warm: a later page view
 * of the same visitor, the scripts in the browser's cache (served as a CDN serves a versioned file).
 */
async function loadOnce(variant, { warm }) {
  const context = await browser.newContext();
  const { page, cdp } = await openPage(context, variant);
  if (warm) {
    await page.goto('about:blank');
    await page.goto(`${base}/${variant}`);
    await untilInPage(page, () => window.__launcherAt !== undefined);
  }
  const { at, idleAfter } = await page.evaluate(() => ({
    at: window.__launcherAt,
    // Idle callbacks that began once the launcher had a box: after it was drawn.
    idleAfter: window.__idle.filter(([start]) => start >= window.__launcherBoxAt).reduce((sum, [, duration]) => sum + duration, 0),
  }));
  // (Read after: an idle callback in between is counted as script before the launcher, not left out.)
  const { metrics } = await cdp.send('Performance.getMetrics');
  // The page's script until the metrics were read, less what ran at idle after the launcher was drawn.
  const script = metrics.find((m) => m.name === 'ScriptDuration').value * 1000 - idleAfter;
  // How long the browser held the first script's request before sending it (Resource Timing).
  const queued = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.initiatorType === 'script');
    return entry ? entry.requestStart - entry.fetchStart : 0;
  });
  const bytes = await page.evaluate(() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
    .reduce((n, e) => n + (e.encodedBodySize || 0), 0));
  await context.close();
  return { at, script, idleAfter, bytes, queued };
}

/** How much later than the floor's launcher (in the same rounds) a page's launcher showed. */
const overFloor = (page, floor) => stats(page.ats.map((at, i) => at - floor.ats[i]));

/**
 * The pages loaded in turn, SAMPLES rounds: each widget and naive figure is compared with the
 * blank page of its own round, so a slow moment of the machine does not count as the widget's.
 */
async function startup({ warm = false } = {}) {
  const runs = { blank: [], floor: [], widget: [], snippet: [], naive: [] };
  for (let i = 0; i < SAMPLES; i++) for (const variant of Object.keys(runs)) runs[variant].push(await loadOnce(variant, { warm }));
  const pick = (variant, key) => runs[variant].map((r) => r[key]);
  const over = (variant) => runs[variant].map((r, i) => r.at - runs.blank[i].at);
  return Object.fromEntries(Object.keys(runs).map((v) => [v, { ats: pick(v, 'at'), at: stats(pick(v, 'at')), over: stats(over(v)), script: stats(pick(v, 'script')), idleAfter: stats(pick(v, 'idleAfter')), bytes: stats(pick(v, 'bytes')), queued: stats(pick(v, 'queued')) }]));
}

// --- first open --------------------------------------------------------------------------------------
async function firstOpen(variant, { hoverFirst }) {
  const panel = [];
  const greeting = [];
  for (let i = 0; i < SAMPLES; i++) {
    const context = await browser.newContext();
    const { page } = await openPage(context, variant);
    if (hoverFirst) {
      const { x, y } = await launcherCentre(page, HOST[variant]);
      await page.mouse.move(x, y);
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

/** The JS heap after GC of the blank page under the same harness: what any page holds before a widget. */
async function blankHeap() {
  const context = await browser.newContext();
  const { cdp } = await openPage(context, 'blank');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await context.close();
  return usedSize;
}

// --- long conversations ------------------------------------------------------------------------------
/**
 * `sendInPage` as a function of the page, called through CDP. Not with `page.evaluate`: that runs
 * Playwright's own serializer in the page at each call, whose code V8 optimises as the sends go on,
 * and the heap's growth counted it as the widget's (compiled code grew by 477 KB from 91 to 2,041
 * messages with it, by 383 KB without: measured).
 */
async function sender(cdp) {
  await cdp.send('Runtime.evaluate', { expression: `window.__benchSend = ${sendInPage}` });
  const { result: { objectId } } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  return async (arg) => {
    const { result, exceptionDetails } = await cdp.send('Runtime.callFunctionOn', {
      objectId, functionDeclaration: 'function (arg) { return this.__benchSend(arg); }', arguments: [{ value: arg }], awaitPromise: true, returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  };
}

/**
 * The JS heap after GC of a page that restores the conversation `context` holds (a new browser
 * context given its storage: the visitor back later, in a page of its own), its panel open and its
 * newest message (`newest`) shown. Without the compiled code that the page which sent the messages
 * made of its functions as they ran hundreds of times: what the conversation itself costs a page.
 */
async function restoredHeap(cdp, variant, newest) {
  // The storage read through the DevTools Protocol: Playwright's storageState() runs its script in
  // the page, which would count in the sending page's heap (+90 KB at 1,041 messages, measured).
  const { entries } = await cdp.send('DOMStorage.getDOMStorageItems', { storageId: { securityOrigin: new URL(base).origin, isLocalStorage: true } });
  const localStorage = entries.map(([name, value]) => ({ name, value }));
  const restored = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: { cookies: [], origins: [{ origin: new URL(base).origin, localStorage }] } });
  try {
    const { page, cdp } = await openPage(restored, variant);
    const { x, y } = await launcherCentre(page, HOST[variant]);
    await page.mouse.click(x, y);
    await untilInPage(page, ([s, text]) => [...document.querySelector(s).shadowRoot.querySelectorAll('[part~="bubble--agent"]')].some((b) => b.textContent.includes(text)), [HOST[variant], newest]);
    // Settled: the chunks a first open asks for after painting loaded, the work it leaves for idle
    // time done (measured at once, the figure varied by ~0.8 MB between runs).
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))));
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await restored.close();
  }
}

async function conversation(variant, { profileAt } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, cdp } = await openPage(context, variant);
  const { x, y } = await launcherCentre(page, HOST[variant]);
  await page.mouse.click(x, y);
  await untilInPage(page, (s) => document.querySelector(s).shadowRoot.querySelector('[part~="bubble--agent"]'), HOST[variant]);
  const messages = () => page.evaluate((s) => document.querySelector(s).shadowRoot.querySelectorAll('[part~="message"]').length, HOST[variant]);
  const send = await sender(cdp);
  const rows = [];
  let sent = 0;
  for (const level of LEVELS) {
    // Build up to the level by sending, as a visitor does (each send adds the message and its reply).
    // Counted in the conversation (the greeting, then two per send), not in the DOM: the widget
    // keeps only the newest entries there.
    while (1 + 2 * sent < level) await send([HOST[variant], `message ${++sent}`]);
    const inDom = [];
    const frame = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t = await send([HOST[variant], `sample ${++sent}`]);
      inDom.push(t.inDom);
      frame.push(t.frame);
    }
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    const measuredAt = 1 + 2 * sent;
    const shown = await messages();
    // (The naive reference keeps no conversation across page loads.)
    const restored = variant === 'widget' ? await restoredHeap(cdp, variant, `sample ${sent}`) : undefined;
    const split = { before: [], network: [], after: [] };
    for (let i = 0; i < SAMPLES; i++) {
      const t = await send([HOST[variant], `annotated ${++sent}`, true]);
      for (const key of Object.keys(split)) split[key].push(t[key]);
    }
    // Heap snapshots (after the timed sends, before the profile): where the memory goes at the
    // profiled level, and at the first and the last level what grew between them, by kind.
    let snapshot;
    if (profileAt !== undefined && [profileAt, LEVELS[0], LEVELS.at(-1)].includes(level)) {
      await cdp.send('HeapProfiler.collectGarbage');
      snapshot = await heapSnapshot(cdp, `${variant}-${level}.heapsnapshot`);
    }
    // Profiled in sends of their own, after the timed ones: sampling every 0.1 ms and tracing slow
    // the page down, and would otherwise count in the figures above.
    let hot;
    let renderer;
    if (profileAt === level) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, { categories: ['devtools.timeline'] });
      for (let i = 0; i < SAMPLES; i++) await send([HOST[variant], `profiled ${++sent}`]);
      const trace = await browser.stopTracing();
      writeFileSync(new URL(`${variant}-${level}.trace.json`, out), trace);
      renderer = rendererWork(JSON.parse(trace.toString()));
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(new URL(`${variant}-${level}.cpuprofile`, out), JSON.stringify(profile));
      hot = hotFunctions(profile);
    }
    rows.push({ level, messages: measuredAt, shown, split: Object.fromEntries(Object.entries(split).map(([k, v]) => [k, stats(v)])), inDom: stats(inDom), frame: stats(frame), heap: usedSize, restored, nodes, hot, heapTop: level === profileAt ? snapshot.top : undefined, heapKinds: snapshot?.categories, heapCode: snapshot?.code, renderer });
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

/** What a heap snapshot node is, for the growth breakdown: compiled code, strings, the browser's (C++) objects, or JS objects. */
function heapCategory(type, name) {
  if (type === 'code') return 'compiled code (bytecode, machine code, their metadata)';
  if (type.endsWith('string')) return 'strings';
  if (type === 'native' || /^(blink|cppgc|v8)::/.test(name)) return 'browser objects (C++, not in the JS heap figure)';
  return 'JS objects, arrays, closures';
}

/**
 * Takes a heap snapshot, writes it, and sums self sizes per constructor name (`top`), per
 * {@link heapCategory} (`categories`), and the functions' compiled code per module (`code`, see
 * code-by-module.mjs).
 */
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
  const categories = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]];
    const full = snapshot.strings[snapshot.nodes[i + nameAt]];
    const name = type === 'object' || type === 'native' ? full : `(${type})`;
    const size = snapshot.nodes[i + sizeAt];
    sizes.set(name, (sizes.get(name) ?? 0) + size);
    const category = heapCategory(type, full);
    categories.set(category, (categories.get(category) ?? 0) + size);
  }
  return { top: [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, top), categories, code: codeByModule(snapshot) };
}

const STOP = Symbol('stop');

// --- run and report ----------------------------------------------------------------------------------
/** The startup goal's line, printed with the others (none with BENCH_ONLY=conversation). */
let startupGoal;
try {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`agent-chat bench: Chromium, loopback HTTP, ${SAMPLES} samples per figure (median (min–max)); naive = a bare Lit element re-rendering the whole list with marked + DOMPurify\n`);

  // BENCH_ONLY=conversation: the sends alone (the conversation's figures and goals, its profile and heap).
  const conversationOnly = ONLY === 'conversation';
  if (!conversationOnly && ONLY !== 'first-open') {
    const { blank, floor, widget: widgetStart, snippet: snippetStart, naive: naiveStart } = await startup();
    const warm = await startup({ warm: true });
    console.log('startup (navigation → launcher visible; blank, floor, widget, widget with the launcher in its HTML and naive page loaded in turn, each compared with the blank page of its round)');
    console.log(`  blank page:            ${fmt(blank.at)}`);
    // What a script tag costs whatever it loads: the floor under the goal's line.
    console.log(`  a script that only draws a launcher (${floorBytes} bytes), first visit: blank + ${fmt(floor.over)}, its request held ${fmt(floor.queued)}; later visits: blank + ${fmt(warm.floor.over)}`);
    console.log(`  widget, first visit:   ${fmt(widgetStart.at)}  = blank + ${fmt(widgetStart.over)}  naive blank + ${fmt(naiveStart.over)} → ${ratio(widgetStart.over, naiveStart.over)}   goal: ≤ blank + 10 ms`);
    console.log(`    of which the browser held the script's request before sending it (fetchStart → requestStart): ${fmt(widgetStart.queued)}`);
    console.log(`    widget over that script's launcher, first visit: ${fmt(overFloor(widgetStart, floor))}; later visits: ${fmt(overFloor(warm.widget, warm.floor))}`);
    console.log(`  widget, later visits:  ${fmt(warm.widget.at)}  = blank + ${fmt(warm.widget.over)}  naive blank + ${fmt(warm.naive.over)} → ${ratio(warm.widget.over, warm.naive.over)}   (scripts cached)`);
    console.log(`  launcher in the page's HTML (launcherSnippet), first visit: ${fmt(snippetStart.at)}  = blank + ${fmt(snippetStart.over)}; later visits: blank + ${fmt(warm.snippet.over)}   goal: ≤ blank + 10 ms`);
    console.log(`  script before it:      widget ${fmt(widgetStart.script)}  naive ${fmt(naiveStart.script)} → ${ratio(widgetStart.script, naiveStart.script)}   (the blank page ${fmt(blank.script)}, the floor ${fmt(floor.script)})`);
    console.log(`  script at idle after:  widget ${fmt(widgetStart.idleAfter)}   (its first read of storage, for messages left to send and unseen replies)`);
    console.log(`  bytes before any use:  widget ${kb(widgetStart.bytes.median)}  naive ${kb(naiveStart.bytes.median)} → ${ratio(widgetStart.bytes, naiveStart.bytes)} (decoded bodies)\n`);

    // BENCH_ONLY=startup: these figures alone (a minute, not a quarter of an hour).
    if (ONLY === 'startup') throw STOP;
    startupGoal = `  startup over the blank page: ${widgetStart.over.median.toFixed(1)} ms at a first visit, ${warm.widget.over.median.toFixed(1)} ms at later ones; with the launcher in the page's HTML ${snippetStart.over.median.toFixed(1)} and ${warm.snippet.over.median.toFixed(1)} ms (goal ≤ 10); a script that only draws a launcher ${floor.over.median.toFixed(1)} and ${warm.floor.over.median.toFixed(1)} ms`;
  }
  if (!conversationOnly) {
    console.log('first open (launcher click → panel visible / → greeting reply visible)');
    for (const [label, hoverFirst] of [['cold', false], ['after hovering (prefetch on intent)', true]]) {
      const w = await firstOpen('widget', { hoverFirst });
      const n = await firstOpen('naive', { hoverFirst });
      console.log(`  ${label}: panel ${fmt(w.panel)} (naive ${ratio(w.panel, n.panel)}), greeting ${fmt(w.greeting)} (naive ${ratio(w.greeting, n.greeting)})`);
      // A greeting with markdown waits for the markdown chunk (marked, DOMPurify), loaded when it arrives.
      const m = await firstOpen('widget-markdown', { hoverFirst });
      console.log(`    with a markdown greeting: panel ${fmt(m.panel)}, greeting ${fmt(m.greeting)} (naive ${ratio(m.greeting, n.greeting)})`);
    }
    console.log('');
    // BENCH_ONLY=first-open: these figures alone.
    if (ONLY === 'first-open') throw STOP;
  }

  const widgetRows = await conversation('widget', { profileAt: PROFILE_AT });
  const naiveRows = await conversation('naive');
  const blankHeapSize = await blankHeap();
  console.log(`a conversation built by sending (send → reply in the DOM / → next frame; JS heap after GC, a blank page holding ${(blankHeapSize / 1048576).toFixed(2)} MB; DOM nodes)`);
  widgetRows.forEach((w, i) => {
    const n = naiveRows[i];
    console.log(`  ${String(w.messages).padStart(5)} messages (widget: ${w.shown} in the DOM; naive: ${n.shown}):`);
    console.log(`     reply in DOM  ${fmt(w.inDom)}   naive ${fmt(n.inDom)} → ${ratio(w.inDom, n.inDom)}`);
    const part = (row) => `${row.split.before.median.toFixed(1)} + ${row.split.network.median.toFixed(1)} + ${row.split.after.median.toFixed(1)} ms`;
    console.log(`       of which  click → fetch + fetch → reply parsed + parsed → DOM: ${part(w)}   naive ${part(n)}`);
    console.log(`     next frame    ${fmt(w.frame)}   naive ${fmt(n.frame)} → ${ratio(w.frame, n.frame)}`);
    console.log(`     heap after GC ${(w.heap / 1048576).toFixed(2)} MB   naive ${(n.heap / 1048576).toFixed(2)} MB → ${(w.heap / n.heap).toFixed(2)}×`);
    console.log(`       a page restoring it (the visitor back later, the panel open): ${(w.restored / 1048576).toFixed(2)} MB`);
    console.log(`     DOM nodes     ${w.nodes}   naive ${n.nodes} → ${(w.nodes / n.nodes).toFixed(2)}×`);
  });
  const first = widgetRows[0];
  const last = widgetRows.at(-1);
  const at1000 = widgetRows.find((r) => r.level === 1000);
  const growth = (a, b) => `${(((b - a) / a) * 100).toFixed(1)} %`;
  console.log('\ngoals (this 2-core machine)');
  if (at1000) {
    console.log(`  at 1,000: reply in DOM ${at1000.inDom.median.toFixed(1)} ms (goal ≤ 8), next frame ${at1000.frame.median.toFixed(1)} ms (goal ≤ 20), heap ${(at1000.heap / 1048576).toFixed(2)} MB (goal ≤ 3)`);
  }
  console.log(`  growth ${first.level} → ${last.level}: reply in DOM ${growth(first.inDom.median, last.inDom.median)}, next frame ${growth(first.frame.median, last.frame.median)}, heap ${growth(first.heap, last.heap)}, DOM nodes ${growth(first.nodes, last.nodes)} (goal: each ≤ 25 %)`);
  console.log(`    the heap of a page restoring the conversation (without the compiled code of the page that sent it): ${growth(first.restored, last.restored)}`);
  if (startupGoal) console.log(startupGoal);

  const profiled = widgetRows.find((r) => r.hot);
  if (profiled) {
    const at = `${profiled.messages.toLocaleString('en')} messages`;
    const file = (ext) => `test-results/bench/widget-${profiled.level}.${ext}`;
    console.log(`\nwhere the time goes at ${at} (CPU profile, ${SAMPLES} sends, ${profiled.hot.total.toFixed(0)} ms sampled; ${file('cpuprofile')}):`);
    for (const [fn, ms] of profiled.hot.top) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${fn}`);
    console.log(`renderer work in the same sends (devtools.timeline trace; ${file('trace.json')}; nested events overlap):`);
    for (const [name, ms] of profiled.renderer) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${name}`);
    console.log(`where the memory goes at ${at} (heap snapshot, self size by constructor; ${file('heapsnapshot')}):`);
    for (const [name, bytes] of profiled.heapTop) console.log(`  ${kb(bytes).padStart(9)}  ${name}`);
  }
  if (first.heapKinds && last.heapKinds && first !== last) {
    console.log(`what grew from ${first.messages} to ${last.messages} messages (heap snapshots after GC, self sizes; JS heap figure ${growth(first.heap, last.heap)}: ${kb(first.heap)} → ${kb(last.heap)}):`);
    for (const [kind, bytes] of [...last.heapKinds].sort((a, b) => b[1] - a[1])) {
      const before = first.heapKinds.get(kind) ?? 0;
      console.log(`  ${(bytes - before >= 0 ? '+' : '') + kb(bytes - before)}`.padEnd(14) + `${kind} (${kb(before)} → ${kb(bytes)})`);
    }
    const grew = [...new Set([...first.heapCode.keys(), ...last.heapCode.keys()])]
      .map((module) => [module, first.heapCode.get(module) ?? 0, last.heapCode.get(module) ?? 0])
      .sort((a, b) => b[2] - b[1] - (a[2] - a[1]));
    const total = (code) => kb([...code.values()].reduce((a, b) => a + b, 0));
    console.log(`  the functions' compiled code by the module they are in (builtins not counted; ${total(first.heapCode)} → ${total(last.heapCode)}; "(no file)" is the bench's own):`);
    for (const [module, before, after] of grew.slice(0, 12)) console.log(`    ${(after - before >= 0 ? '+' : '') + kb(after - before)}`.padEnd(16) + `${module} (${kb(before)} → ${kb(after)})`);
  }
} catch (error) {
  if (error !== STOP) throw error;
} finally {
  await browser.close();
  await server.terminate();
}
