import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright';
import { LONG_REPLY } from './test/support/long-reply.js';
const root = new URL('./', import.meta.url);
let hostHtml = '';
const server = createServer(async (req, res) => {
  const url = new URL(req.url!, 'http://x');
  if (url.pathname === '/chat') {
    let body = ''; for await (const c of req) body += c;
    const { message } = JSON.parse(body);
    (globalThis as any).asked ??= []; (globalThis as any).asked.push(message.text ?? message.payload?.data); console.log('asked', message.text?.slice(0, 20) ?? message.payload?.data);
    res.setHeader('Content-Type', 'application/json');
    const t = message.payload?.data === 'greeting' ? 'Hello! How can I help?' : message.text === 'long' ? LONG_REPLY : message.text === 'huge' ? ('Lorem **ipsum** dolor sit amet, consectetur adipiscing elit. '.repeat(20) + '\n\n').repeat(Number(process.env.HUGE ?? 800)) : `You said: ${message.text ?? message.payload?.data}`;
    const responses: unknown[] = [{ id: 'TX_' + Math.random(), type: 'text', options: [t], altText: t }];
    if (message.payload?.data === 'greeting') responses.push({ id: 'BT_1', type: 'buttons', text: 'Pick one', altText: 'Pick one', buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'pricing' } }, { title: 'Talk to a human being please', payload: { type: 'node', data: 'human' } }] });
    return res.end(JSON.stringify({ status: 'ok', result: { responses } }));
  }
  if (url.pathname.startsWith('/dist/')) { res.setHeader('Content-Type', 'text/javascript'); return res.end(readFileSync(new URL(`.${url.pathname}`, root))); }
  res.setHeader('Content-Type', 'text/html');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>x</title></head><body>${hostHtml}<script type="module" src="/dist/agent-chat.js"></script></body></html>`);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
export async function run(name: string, html: string, opts: { width?: number; height?: number; dark?: boolean; open?: boolean; send?: string[] } = {}, extra?: (p: import('playwright').Page) => Promise<void>) {
  hostHtml = html;
  const ctx = await browser.newContext({ viewport: { width: opts.width ?? 1000, height: opts.height ?? 700 }, colorScheme: opts.dark ? 'dark' : 'light' });
  const p = await ctx.newPage();
  p.on('pageerror', (e) => console.log(name, 'pageerror', e.message));
  p.on('console', (m) => { if (m.type() === 'error') console.log(name, 'console', m.text()); });
  await p.goto(base + '/');
  const chat = p.locator('agent-chat').first();
  if (opts.open !== false && !(await chat.getAttribute('mode'))?.includes('inline')) await chat.locator('[part~="launcher"]').click();
  await chat.locator('[part~="bubble--agent"]').first().waitFor();
  for (const t of opts.send ?? []) {
    await chat.locator('[part~="input"]').fill(t);
    await chat.locator('[part~="send-button"]').click();
    await chat.locator(`[part~="message--user"]`).last().waitFor();
    await p.waitForTimeout(400);
  }
  if (extra) await extra(p);
  await p.waitForTimeout(300);
  await p.screenshot({ path: `/tmp/x/${name}.png` });
  await ctx.close();
}
const scenarios = JSON.parse(process.env.SCEN ?? '[]');
const mod = await import(process.env.SCEN_FILE!);
await mod.default(run);
await browser.close();
server.close();
