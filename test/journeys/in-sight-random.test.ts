/**
 * The newest message in sight, at random from fixed seeds: the visitor sends short messages and
 * ones answered with a long reply, six replies at once, a table with code, a picture that comes a
 * few frames after its reply, or choices (and picks one), while the site hides and shows the chat,
 * switches its mode, language and font (its messages wrap anew), takes it out of the page and puts
 * it back, changes the height of its box, starts a new conversation (and Undo), and the agent
 * answers a few frames late and is at times unavailable (a 503 that asks to try again at once).
 * The visitor never scrolls. After each step, once nothing is on its way and the log has settled,
 * wherever the log shows: it is at its bottom, or at the start of one of the newest replies (a
 * reply taller than the log is read from its start).
 *
 * Eighty seeds found three faults (src/controllers/autoscroll-controller.ts): the log of a chat
 * made narrower or wider (its box, the mode switched) was left mid-conversation as its messages
 * wrapped anew; and the browser's scroll of a log at its bottom (the log made shorter, a line at
 * its bottom gone) was taken for the visitor's when a long reply came before its event, so the
 * reply was counted as unseen ("1 new message ↓"), not shown. Each has its own test
 * (test/controllers/autoscroll.test.ts, test/journeys/in-sight.test.ts). With pictures that come
 * late, 55 of 120 runs failed before the view followed them (3 December). On a phone (360 × 640,
 * turned to 640 × 360 among the steps: `setViewport`, Chromium and Firefox, not kept here as WebKit's
 * driver cannot set one), one run in 40 left the view mid-conversation after a turn: the browser's
 * scroll keeping the view in a log laid out anew was told before the log's new size. Seeds 81–160
 * found two more: a closed panel's log shown inline stayed at its top (seed 128, Firefox: a hidden
 * log loses its place), and the visitor's message was left below the view (seed 127, WebKit: a
 * line at the bottom gone as they sent, the browser's scroll told before the widget's frame).
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { ok, text, type Handler } from '../support/fake-proxy.js';
import { prng as random } from '../support/prng.js';
import { collectPageErrors, mount, part, parts, useFakeProxies, WAIT } from '../support/widget.js';
import { frames, submit } from './support.js';

/** Eight sequences in each engine (~15 s); raise the count for a longer hunt. */
const SEEDS = Array.from({ length: 8 }, (_, i) => i + 1);
const STEPS = 30;

const long = (words: string) => Array.from({ length: 30 }, (_, i) => `${words} line ${i + 1} of a long answer that goes on`).join('\n\n');
const table = (words: string) => `${words}\n\n| Plan | Storage | Uptime | Support | Price |\n|---|---|---|---|---|\n| Starter | 10 GB | 99.9 % | Email | 9 € |\n| Business | 200 GB | 99.95 % | Chat and phone | 49 € |\n\n\`\`\`\n${'x'.repeat(200)}\n\`\`\``;

/**
 * What lets each picture of the test come: all are let come as the test ends, so that no request
 * stays open past the page's life (in a CI run on 3 December, WebKit's driver timed out taking its
 * page to the next test file, after a run of this file whose last pictures were still held).
 */
const held = new Set<() => Promise<unknown>>();

/**
 * A reply with a picture that comes a few frames after it (`frameCount` of them), as from a slow image
 * host (test/support/held-images.mjs): it has no size until then, and what is below it moves.
 */
function pictureReply(words: string, frameCount: number) {
  const url = `${location.origin}/held-image/${crypto.randomUUID()}`;
  const release = () => fetch(`${url}/release`);
  held.add(release);
  void frames(frameCount).then(release);
  return `${words}: here it is\n\n![A chart](${url}.svg)\n\nWhat do you think?`;
}

/** The visitor's words end in what the agent answers them with: nothing (an echo), ` long`, ` many`, ` table`, ` picture` or ` choices`. */
const agent = (unavailable: () => boolean, delay: () => number): Handler => async ({ body }) => {
  await frames(delay());
  if (unavailable()) return { status: 503, json: { status: 'error', error: 'overloaded' }, headers: { 'Retry-After': '0' } };
  const words = body.message.text;
  if (words === undefined) return ok(text(body.message.payload?.data === 'greeting' ? 'Hello! How can I help?' : `Postback ${JSON.stringify(body.message.payload?.data)}`));
  if (words.endsWith('long')) return ok(text(long(words)));
  if (words.endsWith('many')) return ok(...Array.from({ length: 6 }, (_, i) => text(`${words} reply ${i + 1}`)));
  if (words.endsWith('table')) return ok(text(table(words)));
  if (words.endsWith('picture')) return ok(text(pictureReply(words, 1 + delay() * 3)));
  if (words.endsWith('choices')) {
    return ok({ type: 'buttons', text: `${words}: pick one`, altText: 'Pick one', buttons: [{ title: 'Alpha', payload: { type: 'node', data: 'a' } }, { title: 'Beta', payload: { type: 'node', data: 'b' } }] });
  }
  return ok(text(`You said: ${words}`));
};

/**
 * Where the log of `chat` stands, if it is not where it should be: neither at its bottom nor at the
 * start of one of the newest replies, of the last 24 entries (a visitor's messages still to be sent
 * stay below the replies; the replies to several of them may come in one frame, and the view goes
 * to the start of the first).
 */
function outOfSight(chat: AgentChat): string | undefined {
  const log = part(chat, 'log')!;
  const below = log.scrollHeight - log.scrollTop - log.clientHeight;
  if (below < 2) return undefined;
  const top = log.getBoundingClientRect().top;
  const entries = [...chat.shadowRoot!.querySelectorAll('.entry')].slice(-24);
  const at = (entry: Element) => Math.round(entry.getBoundingClientRect().top - top);
  if (entries.some((entry) => !entry.querySelector('[part~="message--user"]') && Math.abs(at(entry) - 8) <= 2)) return undefined;
  const kind = (entry: Element) => (entry.querySelector('[part~="message--user"]') ? 'visitor' : 'agent');
  return `${Math.round(below)} px above the bottom; the newest entries at ${entries.slice(-12).map((e) => `${at(e)} (${kind(e)})`).join(', ')}`;
}

describe('journeys: the newest message in sight, at random', () => {
  const proxy = useFakeProxies();

  for (const seed of SEEDS) {
    it(`seed ${seed}: after each step the log is at its bottom or at the start of one of the newest replies`, async () => {
      const next = random(seed);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
      let down = 0;
      const p = proxy().handle(agent(() => down > 0 && down-- > 0, () => Math.floor(next() * 4)));
      const page = collectPageErrors();
      const { chat } = await mount(p, { open: true, mode: seed % 3 ? 'launcher' : 'inline' });
      const box = chat.parentElement!;
      const steps: string[] = [];
      let typed = 0;
      const actions: Record<string, () => unknown> = {
        type: async () => {
          const words = `m${++typed}${pick(['', ' long', ' many', ' table', ' picture', ' choices'])}`;
          steps.push(JSON.stringify(words));
          if (part(chat, 'input') && chat.isConnected && (chat.open || chat.mode === 'inline')) await submit(chat, words);
          else chat.send(words);
        },
        choose: () => pick(parts(chat, 'button').filter((b) => !(b as HTMLButtonElement).disabled))?.click(),
        show: () => chat.show(),
        hide: () => chat.hide(),
        hidden: () => chat.toggleAttribute('hidden'),
        mode: () => (chat.mode = pick(['inline', 'launcher'])),
        language: () => chat.setAttribute('language', pick(['de', 'en'])),
        box: () => (box.style.height = `${pick([300, 420, 600, 800])}px`),
        font: () => chat.style.setProperty('--agent-chat-font-family', pick(['', 'serif', 'monospace, monospace'])),
        remount: async () => {
          chat.remove();
          await frames(1 + Math.floor(next() * 3));
          box.append(chat);
        },
        restart: () => chat.restart(),
        undo: () => part(chat, 'undo-button')?.click(),
        down: () => (down = 1 + Math.floor(next() * 3)),
        retry: () => part(chat, 'retry-button')?.click(),
      };
      const names = Object.keys(actions);
      // Pictures that came (or failed): counted, so that the log is not checked in the frames it takes them in.
      // Counted as they complete, too: a picture is laid out at its size as it comes, and its `load` event
      // is told in a later task. The widget follows it in the frame after, before it is painted; a check in
      // between reads a log no frame showed (Chromium, seed 4 in 1 of 24 runs with the three engines at once,
      // 3 of 96 traced: the newest 143 px below the view, put right by the widget 2 ms later; 0 of 192 since).
      let pictures = 0;
      for (const type of ['load', 'error']) chat.shadowRoot!.addEventListener(type, () => pictures++, true);
      /** Once nothing is on its way and nothing more was drawn, and no picture came or completed, in three frames (the widget scrolls in a frame). */
      const settled = async () => {
        for (let drawn = '', tries = 0; tries < 6; tries++) {
          if (p.inFlight || down) return false;
          const complete = [...chat.shadowRoot!.querySelectorAll('img')].filter((img) => img.complete).length;
          const now = `${chat.shadowRoot!.querySelectorAll('.entry').length} ${pictures} ${complete}`;
          if (now === drawn) return true;
          drawn = now;
          await frames(3);
        }
        return false;
      };
      /** Checks made (a step after which the log did not settle, or was not shown, is not checked). */
      let checked = 0;
      const check = async (what: string) => {
        if (!(await settled())) return;
        const log = part(chat, 'log');
        if (!chat.isConnected || chat.hidden || !log?.clientHeight) return;
        expect(outOfSight(chat), `seed ${seed}, ${what}: steps ${steps.join(' ')}`).to.equal(undefined);
        checked++;
      };
      try {
        for (let i = 0; i < STEPS; i++) {
          const name = next() < 0.35 ? 'type' : pick(names);
          steps.push(name);
          await actions[name]();
          await frames(Math.floor(next() * 4));
          await check(`step ${i + 1}`);
        }
        if (!chat.isConnected) box.append(chat);
        chat.removeAttribute('hidden');
        down = 0;
        chat.show();
        // A message that failed many times (the agent down again and again) waits longer each time,
        // up to 30 s: the visitor, waiting for it, presses its Retry now.
        const delivered = () => {
          for (const status of parts(chat, 'message-status')) status.querySelector<HTMLElement>('[part~="retry-button"]')?.click();
          return waitUntil(() => !p.inFlight && !parts(chat, 'message-status').length, `seed ${seed}: everything delivered`, WAIT);
        };
        await delivered();
        // What showing the chat sends (a new conversation's greeting) may go after that: the end is
        // checked once all has settled (a run whose steps all left it unsettled or unseen made no check).
        for (let tries = 0; tries < 5 && !(await settled()); tries++) await delivered();
        await check('at the end');
        expect(checked, `seed ${seed}: steps checked`).to.be.above(0);
        expect(page.errors, `seed ${seed}`).to.deep.equal([]);
      } finally {
        await Promise.all([...held].map((release) => release()));
        held.clear();
        page.stop();
      }
      // Thirty steps, each waiting until the log has settled: about 6 s in WebKit here, more on a busy
      // machine (it ran out of mocha's 10 s in WebKit here with six browsers at once).
    }).timeout(20_000);
  }
});
