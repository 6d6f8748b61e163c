/**
 * A reload over storage corrupted at random (seeded): a conversation with text, buttons and a
 * visitor's messages is stored as the widget stores it, then one part of what is stored (a field of
 * a message, of the conversation, its list, a held request) is given another type or value, or
 * removed; or another key the widget keeps. Whatever it is, the next page shows the chat without
 * an uncaught error and answers the visitor's next message, shown last. (Other seeds: change
 * FIRST_SEED.)
 */
import { expect, waitUntil } from '@open-wc/testing';
import { ok, text } from '../support/fake-proxy.js';
import { pick, prng } from '../support/prng.js';
import { bubbles, collectPageErrors, mount, useFakeProxies, WAIT, waitForBubbles } from '../support/widget.js';
import { submit } from '../journeys/support.js';

const FIRST_SEED = 1;
const SEEDS = Array.from({ length: 16 }, (_, i) => FIRST_SEED + i);

type Random = () => number;
const oddValues = [null, undefined, 0, -1, 1e21, '', 'x', true, [], [null], {}, { type: 'text' }, '<img src=x onerror=alert(1)>'];

/** The paths of `value`'s fields (not itself). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...paths(inner, path)];
  });
}

/** `data` with the field at a random path given an odd value, or removed. */
function corrupt(data: unknown, random: Random) {
  const path = pick(random, paths(data));
  let parent = data as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path.at(-1)!;
  if (random() < 0.2) delete parent[key];
  else parent[key] = structuredClone(pick(random, oddValues));
  return path.join('.');
}

describe('a reload over storage corrupted at random', () => {
  const proxy = useFakeProxies();

  /**
   * Stores a conversation as the widget does, lets `spoil` corrupt what is stored (it returns what
   * it did), and reloads: the chat must show, throw nothing, and answer the next message.
   */
  async function reloadOver(spoil: (p: ReturnType<typeof proxy>) => string) {
    const p = proxy();
    p.next(ok(text('Hello! Pick one.'), { type: 'buttons', text: 'Which?', altText: 'Which?', buttons: [{ title: 'A', payload: { type: 'node', data: 'a' } }, { title: 'Docs', url: 'https://example.com/docs' }] }));
    const first = (await mount(p, { open: true })).chat;
    await waitForBubbles(first, 2);
    await submit(first, 'one');
    await waitForBubbles(first, 4);
    first.remove();

    const where = spoil(p);
    const page = collectPageErrors();
    try {
      const { chat } = await mount(p, { open: true });
      await chat.updateComplete;
      await submit(chat, 'after');
      await waitUntil(() => bubbles(chat).at(-1) === 'You said: after', `answered, with ${where} corrupted`, WAIT);
      expect(page.errors, `uncaught, with ${where} corrupted`).to.deep.equal([]);
      chat.remove();
    } finally {
      page.stop();
    }
  }

  /** Rewrites the stored envelope under `name` with `change` made to it. */
  const rewrite = (p: ReturnType<typeof proxy>, name: string, change: (stored: { data: unknown }) => string) => {
    const key = `agent-chat:${p.url}:${name}`;
    const stored = JSON.parse(localStorage.getItem(key)!);
    const where = `${name}: ${change(stored)}`;
    localStorage.setItem(key, JSON.stringify(stored));
    return where;
  };

  for (const seed of SEEDS) {
    it(`seed ${seed}: the chat shows, no uncaught error, the next message answered and shown last`, () => reloadOver((p) => {
      const random = prng(seed);
      // Mostly the conversation; else another key the widget keeps (the time read, the sender, tags…).
      const keys = Object.keys(localStorage).filter((k) => k.startsWith(`agent-chat:${p.url}:`)).map((k) => k.slice(k.lastIndexOf(':') + 1));
      return rewrite(p, random() < 0.7 ? 'conversation' : pick(random, keys), (stored) => {
        if (stored.data !== null && typeof stored.data === 'object' && paths(stored.data).length) return corrupt(stored.data, random);
        stored.data = structuredClone(pick(random, oddValues));
        return 'data';
      });
    }));
  }

  it('a message dated past what a date can hold (found at random: its time threw at each drawing): the chat shows, no uncaught error, the next message answered', () =>
    reloadOver((p) => rewrite(p, 'conversation', (stored) => {
      (stored.data as { messages: { at: number }[] }).messages[1].at = 1e21;
      return 'messages.1.at';
    })));
});
