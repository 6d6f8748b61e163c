import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startDemo } from '../../demo/start.js';
import { fakeUpstream } from './support/servers.js';

const post = (url: string, origin: string) => fetch(url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: origin },
  body: JSON.stringify({ message: { payload: { type: 'node', data: 'greeting' } }, sender: { id: 'demo-test' } }),
});

describe('npm start (demo/start.ts)', () => {
  it('serves the demo page with a strict CSP and the proxy at /chat in front of the reference agent', async () => {
    const demo = await startDemo({ port: 0, env: {}, quiet: true });
    try {
      const page = await fetch(demo.url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<agent-chat/);
      assert.match(page.headers.get('content-security-policy')!, /script-src 'self'; style-src 'self'.*require-trusted-types-for 'script'/);
      const origin = new URL(demo.url).origin;
      const reply = await post(`${origin}/chat`, origin);
      assert.equal(reply.status, 200);
      assert.match(JSON.stringify(await reply.json()), /demo agent/);
    } finally {
      await demo.close();
    }
  });

  it('puts the proxy in front of a real deployment when AGENT_API_URL, AGENT_HANDLE and AGENT_API_TOKEN are set', async () => {
    const deployment = await fakeUpstream();
    const demo = await startDemo({
      port: 0, quiet: true,
      env: { AGENT_API_URL: deployment.url, AGENT_HANDLE: 'real-handle', AGENT_API_TOKEN: 'fake-real-token' },
    });
    try {
      const origin = new URL(demo.url).origin;
      assert.equal((await post(`${origin}/chat`, origin)).status, 200);
      const [call] = deployment.calls;
      assert.equal(call.headers.authorization, 'Bearer fake-real-token');
      assert.equal((call.body as { handle: string }).handle, 'real-handle');
    } finally {
      await demo.close();
      await deployment.close();
    }
  });
});
