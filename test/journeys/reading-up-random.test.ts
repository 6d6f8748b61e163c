/**
 * A visitor reading further up, at random from fixed seeds: they send messages answered with text,
 * a long reply, several replies, or pictures that come some frames later (a slow image host), and
 * scroll up to read while replies are on their way and pictures come (also as they scroll near
 * them: pictures load as the visitor nears them); near the top, earlier messages come back. After
 * each step, while they read further up (they scrolled up, and have not sent since): what was at
 * the view's top is where it was, whatever came above or below it, and the replies that came
 * while they read are counted, not shown.
 *
 * What is at the view's top is the innermost element there, as the browser's scroll anchoring
 * picks one: a picture that grows there grows downwards.
 *
 * Seeds 1–40 in the three engines: 120 of 120 (4 December); at the commit before the view followed
 * what is read, 107 of 120 (seeds 7, 9, 10, 21, 28, 36 and 38: what was read moved down by a
 * picture's height, 144 px, in one to three engines each). Written first with checks two frames
 * after each step, it failed in WebKit 3 of 3 runs of seed 7: a scroll up of 118 px, made after a
 * long reply had come and before the widget's frame that showed it, was taken for the browser's
 * scroll of a log at its bottom and the view went to the reply (the same at the commit before the
 * view followed what is read): the first of the replies, in the typing line's place, started 41 px
 * below the view, within the 48 px in which an entry added since then marked the browser's scroll;
 * since 5 December it marks it only where it starts at the log's bottom edge or above it (the test
 * "replies that take the place of the typing line" in test/controllers/autoscroll.test.ts, seen
 * failing in the three engines before). On 8 December, in Firefox with both cores busy (1 run of
 * seed 21 in about 12, in CI once), what was read moved down by a picture's height, 143.6 px: a
 * picture above it came, the widget scrolled by its height, and a second picture came before that
 * scroll's event was told; the widget took its own scroll for the visitor's and found what was at
 * the view's top anew, below the second picture, which it then kept in place instead (the test
 * "two pictures above what the visitor reads…" in test/controllers/autoscroll.test.ts, seen failing
 * in the three engines before). Since: 0 failures in 60 runs of seed 21 so loaded.
 */
import { expect } from '@open-wc/testing';
import { ok, text, type Handler } from '../support/fake-proxy.js';
import { prng as random } from '../support/prng.js';
import { collectPageErrors, mount, part, useFakeProxies } from '../support/widget.js';
import { frames, submit } from './support.js';

/**
 * Six sequences in each engine (~80 s with the three at once), each of which put a picture above
 * what the visitor read before the view followed it (all six failed in Chromium then, five of them
 * in Firefox or WebKit too); for a longer hunt, seeds 1–40 or more.
 */
const SEEDS = [9, 10, 21, 28, 36, 38];
const STEPS = 24;

/** What lets each picture come: all are let come as the test ends (see in-sight-random.test.ts). */
const held = new Set<() => Promise<unknown>>();

/** A picture that comes `frameCount` frames after its reply was made (test/support/held-images.mjs). */
function picture(frameCount: number) {
  const url = `${location.origin}/held-image/${crypto.randomUUID()}`;
  const release = () => fetch(`${url}/release`);
  held.add(release);
  void frames(frameCount).then(release);
  return `![A chart](${url}.svg)`;
}

/** The visitor's words end in what the agent answers them with: nothing (an echo), ` long`, ` many` or ` pictures`. */
const agent = (delay: () => number): Handler => async ({ body }) => {
  await frames(delay());
  const words = body.message.text;
  if (words === undefined) return ok(text('Hello! How can I help?'));
  if (words.endsWith('long')) return ok(text(Array.from({ length: 20 }, (_, i) => `${words} line ${i + 1} of a long answer`).join('\n\n')));
  if (words.endsWith('many')) return ok(...Array.from({ length: 6 }, (_, i) => text(`${words} reply ${i + 1}`)));
  if (words.endsWith('pictures')) {
    return ok(text(`${words}: the first\n\n${picture(1 + delay() * 4)}\n\nand the second\n\n${picture(10 + delay() * 8)}\n\nWhat do you think?`));
  }
  return ok(text(`You said: ${words}`));
};

describe('journeys: a visitor reading further up, at random', () => {
  const proxy = useFakeProxies();
  /** Pictures that came while the visitor read further up, over all seeds: the journeys are to put some above what they read. */
  let picturesWhileReading = 0;
  after(() => expect(picturesWhileReading, 'pictures that came while the visitor read further up').to.be.above(0));

  for (const seed of SEEDS) {
    it(`seed ${seed}: while the visitor reads further up, what is at the view's top stays where it was, and replies are counted`, async () => {
      const next = random(seed);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
      const p = proxy().handle(agent(() => Math.floor(next() * 6)));
      const page = collectPageErrors();
      const { chat } = await mount(p, { open: true, mode: seed % 2 ? 'launcher' : 'inline' });
      if (chat.mode === 'inline') chat.parentElement!.style.height = '420px';
      const log = () => part(chat, 'log')!;
      const steps: string[] = [];
      /** What the visitor reads: the element at the view's top when they last scrolled, and its place then. */
      let reading: { element: Element; top: number; replies: number } | undefined;
      const topOf = (element: Element) => element.getBoundingClientRect().top - log().getBoundingClientRect().top;
      const replies = () => chat.shadowRoot!.querySelectorAll('[part~="message--agent"]').length;
      let typed = 0;
      /** Checks made while the visitor read further up, and pictures that came meanwhile. */
      let checked = 0;
      let came = 0;
      let pictures = 0;
      for (const type of ['load', 'error']) chat.shadowRoot!.addEventListener(type, () => (pictures++, reading && came++), true);
      /**
       * Once no entry was drawn and no picture came or completed in three frames. (A picture is laid
       * out at its size as it comes, and the widget follows it as that frame is laid out, before it
       * is painted; read by a script in between, as a check in a frame's callbacks would, the log
       * shows what no frame painted.)
       */
      const settled = async () => {
        for (let drawn = ''; ; ) {
          const complete = [...chat.shadowRoot!.querySelectorAll('img')].filter((img) => img.complete).length;
          const now = `${chat.shadowRoot!.querySelectorAll('.entry').length} ${pictures} ${complete}`;
          if (now === drawn) return;
          drawn = now;
          await frames(3);
        }
      };
      const actions: Record<string, () => unknown> = {
        send: async () => {
          const words = `m${++typed}${pick(['', ' long', ' many', ' pictures', ' pictures'])}`;
          steps.push(JSON.stringify(words));
          await submit(chat, words); // their own message takes them to the newest
          reading = undefined;
        },
        scroll: async () => {
          const l = log();
          // Further up than where they are, and than "at the newest" (a scroll down to where the log's
          // bottom was before the newest entries came is taken for the browser's, not theirs).
          const most = Math.min(l.scrollTop, l.scrollHeight - l.clientHeight) - 100;
          if (most < 50) return;
          const to = Math.floor(next() * most);
          steps.push(`scroll ${to}`);
          // In a task of its own, as the visitor's wheel, touch or keys come: not among a frame's callbacks
          // (where the steps before end), after the frame's scroll events were told and before the
          // widget's own callback of that frame.
          await new Promise((resolve) => setTimeout(resolve));
          const scrolled = new Promise((resolve) => l.addEventListener('scroll', resolve, { once: true }));
          l.scrollTop = to;
          await scrolled; // (the widget hears of it: near the top, earlier messages come back, in view kept)
          await frames(1);
          const box = l.getBoundingClientRect();
          const element = chat.shadowRoot!.elementFromPoint(box.x + box.width / 2, box.y + 1);
          reading = element && l.contains(element) ? { element, top: topOf(element), replies: replies() } : undefined;
        },
        wait: () => frames(1 + Math.floor(next() * 8)),
      };
      try {
        for (let i = 0; i < STEPS; i++) {
          const name = i < 5 ? 'send' : next() < 0.3 ? 'send' : pick(['scroll', 'scroll', 'wait']);
          if (name !== 'send') steps.push(name);
          await actions[name]();
          // Each step as a visitor sees it: what the browser painted, once all has settled.
          await settled();
          if (!reading?.element.isConnected) continue;
          const where = `seed ${seed}, step ${i + 1}: ${steps.join(' ')}`;
          expect(topOf(reading.element) - reading.top, `${where}: what is at the view's top moved by`).to.be.closeTo(0, 1.5);
          // Replies drawn while they read are counted with the widget's next frame.
          const unseen = replies() - reading.replies;
          await frames(2);
          const counted = part(chat, 'new-messages-button')?.textContent ?? '';
          expect(!unseen || /\d/.test(counted), `${where}: ${unseen} replies came while reading, counted "${counted}"`).to.equal(true);
          checked++;
        }
        expect(checked, `seed ${seed}: steps checked while reading further up`).to.be.above(0);
        expect(page.errors, `seed ${seed}`).to.deep.equal([]);
        picturesWhileReading += came;
      } finally {
        await Promise.all([...held].map((release) => release()));
        held.clear();
        page.stop();
      }
    }).timeout(60_000);
  }
});
