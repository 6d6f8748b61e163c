import { expect, fixtureCleanup, oneEvent, waitUntil } from '@open-wc/testing';
import { FakeProxy, ok, text } from '../support/fake-proxy.js';
import { bubbles, mount, waitForBubbles, collectPageErrors, WAIT } from '../support/widget.js';
import { HOSTILE } from '../support/hostile-payloads.js';
import { prng } from '../support/prng.js';

const SEED = Number(new URLSearchParams(location.search).get('seed') ?? 20261121);
const BODIES = 1000;

function generator(random: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const nested = (depth: number): unknown => (depth === 0 ? 'bottom' : random() < 0.5 ? [nested(depth - 1)] : { x: nested(depth - 1) });
  const scalar = (): unknown => pick([
    null, true, false, 0, -1, 1e308, '', 'x', 'é'.repeat(3), '**bold**', '[link](https://example.com)',
    'y'.repeat(20_000), pick(HOSTILE), [], {}, [1, 'a', null], { type: 'text' }, nested(200), 'text', 'buttons', 'carousel',
  ]);
  const templates = (): Record<string, unknown>[] => [
    text('hello'),
    { type: 'buttons', text: 'pick', buttons: [{ title: 'a', payload: { type: 'node', data: 'n' } }, { title: 'b', url: 'https://example.com' }], altText: 'pick' },
    { type: 'buttons', options: ['yes', 'no'] },
    { type: 'carousel', cards: [{ title: 't', subtitle: 's', imageUrl: 'https://example.com/i.png', buttons: [{ title: 'go' }] }], altText: 'cards' },
    { type: pick(['video', 'image', 'quickReplies', '', 'TEXT']), altText: 'alt' },
  ];
  /** Sets a random (possibly nested) field of `value` to something else, or deletes it. */
  const mutate = (value: unknown, depth = 0): unknown => {
    if (typeof value !== 'object' || value === null || depth > 3 || random() < 0.2) return scalar();
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as object) };
    const keys = Object.keys(copy);
    const key = keys.length && random() < 0.85 ? pick(keys) : pick(['type', 'options', 'buttons', 'cards', 'altText', 'zzz']);
    if (random() < 0.15) delete (copy as Record<string, unknown>)[key];
    else (copy as Record<string, unknown>)[key] = mutate((copy as Record<string, unknown>)[key], depth + 1);
    return copy;
  };
  const item = () => {
    let current: unknown = pick(templates());
    for (let i = 1 + Math.floor(random() * 3); i > 0; i--) current = mutate(current);
    return current;
  };
  /** A success envelope around random items (a broken envelope is the transport's business). */
  return (): unknown => {
    const shape = random();
    const responses = shape < 0.1 ? scalar() : Array.from({ length: Math.floor(random() * 4) }, item);
    const result: Record<string, unknown> = { responses };
    if (random() < 0.2) result.responsesStrippedMarkdownText = scalar();
    if (random() < 0.2) result.nodesIds = [scalar()];
    return { status: 'ok', result };
  };
}

describe('fuzzed replies', () => {
  afterEach(() => {
    fixtureCleanup();
    localStorage.clear();
  });

  it(`survives ${BODIES} random and mutated response bodies (seed ${SEED}), and the next normal reply renders`, async function () {
    this.timeout(120_000);
    const { errors, stop } = collectPageErrors();
    const next = generator(prng(SEED));
    const proxy = new FakeProxy();
    try {
      const { chat } = await mount(proxy, { open: true });
      await waitForBubbles(chat, 1);
      proxy.handle(() => ({ json: next() }));
      for (let i = 0; i < BODIES; i++) {
        const answered = oneEvent(chat, 'agent-chat-response');
        chat.send(`fuzz ${i}`);
        await answered;
      }
      expect(errors, 'uncaught errors').to.deep.equal([]);
      proxy.handle(() => ok(text('**normal** again')));
      chat.send('and now?');
      // Replies wait in order for the chunks they need (the carousel's, markdown's: WebKit takes
      // seconds to load the latter from the unbundled test server), so the log may still be catching up.
      await waitUntil(() => bubbles(chat).at(-1) === 'normal again', `the normal reply shown last; saw ${JSON.stringify(bubbles(chat).slice(-3))}`, WAIT);
    } finally {
      stop();
      proxy.restore();
    }
  });
});
