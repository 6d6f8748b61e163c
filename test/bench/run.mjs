// `npm run bench`: how long from send() to the reply in the DOM and laid out, with 10 and 1,000 messages
// already in the log (the widget's own cost: the proxy is an instant in-page fetch stub).
// Chromium via playwright-core; Debian's binary when present. Goal: under one frame (16.7 ms)
// at 1,000 messages, and no growth with the length of the conversation.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const dist = new URL('../../dist/', import.meta.url);
const executablePath = [process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium'].find((p) => p && existsSync(p));

const page = `<!doctype html><html lang="en"><body style="height:700px">
<script>
  // An instant proxy: greets, and answers each text with one markdown reply.
  window.fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    const reply = body.message.text ? 'You said: **' + body.message.text + '**' : 'Hello!';
    return new Response(JSON.stringify({ status: 'ok', result: { responses: [{ type: 'text', options: [reply], altText: reply }] } }),
      { headers: { 'Content-Type': 'application/json' } });
  };
</script>
<script type="module" src="/agent-chat.js"></script>
<agent-chat mode="inline" proxy-url="/bench-chat"></agent-chat>
</body></html>`;

const server = createServer((req, res) => {
  if (req.url === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
  const file = new URL(`.${req.url}`, dist);
  if (!existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

/** Seeds a stored transcript of `count` messages, so the page starts with them in the log. */
const seed = (count) => {
  const messages = Array.from({ length: count }, (_, i) => i % 2
    ? { kind: 'agent', id: `a${i}`, at: 1, item: { type: 'text', options: [`Reply **${i}** with [a link](https://example.com/${i})`] } }
    : { kind: 'user', id: `u${i}`, at: 1, text: `Message ${i}`, status: 'sent', request: { text: `Message ${i}` } });
  return { v: 1, data: { startedAt: Date.now(), updatedAt: Date.now(), greeted: true, messages } };
};

const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function measure(count) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(url);
  await tab.evaluate(([key, value]) => localStorage.setItem(key, value),
    [`agent-chat:${new URL('/bench-chat', url).href}:conversation`, JSON.stringify(seed(count))]);
  await tab.reload();
  await tab.waitForFunction((n) => document.querySelector('agent-chat')?.shadowRoot?.querySelectorAll('[part~="message"]').length === n, count);
  const times = await tab.evaluate(async (rounds) => {
    const chat = document.querySelector('agent-chat');
    const messages = chat.shadowRoot.querySelector('[part~="log"] > *');
    const results = [];
    for (let i = 0; i < rounds; i++) {
      // Watch only the entries added at the end, so the measurement itself does not grow with the log.
      const arrived = new Promise((resolve) => {
        const observer = new MutationObserver((records) => {
          const added = records.flatMap((r) => [...r.addedNodes]);
          if (added.some((n) => n.querySelector?.('[part~="bubble--agent"]'))) {
            observer.disconnect();
            resolve(performance.now());
          }
        });
        observer.observe(messages, { childList: true });
      });
      const start = performance.now();
      chat.send(`ping ${i}`);
      await arrived;
      // The layout the next frame would do anyway, forced here so it is counted too.
      void chat.shadowRoot.querySelector('[part~="log"]').scrollHeight;
      results.push(performance.now() - start);
    }
    return results;
  }, ROUNDS);
  await context.close();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { count, median: at(0.5), p95: at(0.95) };
}

try {
  const rows = [];
  for (const count of [10, 1000]) rows.push(await measure(count));
  console.log(`send → reply in the DOM and laid out, ${ROUNDS} rounds each (Chromium, instant in-page proxy):`);
  for (const { count, median, p95 } of rows) {
    console.log(`  ${String(count).padStart(5)} messages shown: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  }
  const [small, large] = rows;
  console.log(`  growth from 10 to 1,000 messages: ${(large.median - small.median).toFixed(1)} ms (median); goal: under 16.7 ms at 1,000`);
} finally {
  await browser.close();
  server.close();
}
