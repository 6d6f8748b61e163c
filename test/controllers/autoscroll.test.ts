/**
 * The log's scrolling (AutoscrollController) where frames order what it hears: the browser tells it
 * the log's size (a ResizeObserver) after the frame's animation-frame callbacks, and where the
 * visitor is (the scroll event) only in the frame after they scrolled.
 */
import { expect, nextFrame, waitUntil } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { AutoscrollController } from '../../src/controllers/autoscroll-controller.js';

/** What the controller needs of its element. */
const host = (): ReactiveControllerHost => ({
  addController: (_: ReactiveController) => {},
  removeController: () => {},
  requestUpdate: () => {},
  updateComplete: Promise.resolve(true),
});

/** A log 200 px high with 2,000 px of entries, in the page. */
function scroller() {
  const log = document.createElement('div');
  log.style.cssText = 'height: 200px; overflow-y: auto';
  log.append(Object.assign(document.createElement('div'), { style: 'height: 2000px' }));
  document.body.append(log);
  return log;
}

/**
 * Once the log's scroll event has come (and two frames): the visitor still follows the newest,
 * nothing is counted as unseen, and `reply` shows from its start.
 */
async function followsAfterScrollEvent(autoscroll: AutoscrollController, log: HTMLElement, reply: HTMLElement) {
  await new Promise((resolve) => log.addEventListener('scroll', resolve, { once: true }));
  await nextFrame();
  await nextFrame();
  expect(autoscroll.pinned, 'still following the newest').to.equal(true);
  expect(autoscroll.unread, 'nothing counted as unseen').to.equal(0);
  expect(Math.round(reply.getBoundingClientRect().top - log.getBoundingClientRect().top - log.clientTop), 'the reply from its start, 6 px below the top of the view').to.equal(6);
}

/**
 * A log as `scroller()` makes it with a line `height` px high at its bottom (a status line, the
 * typing indicator), followed from its bottom by `autoscroll` (settled: two frames after).
 */
async function logWithALineAtTheBottom(height: number) {
  const log = scroller();
  const line = Object.assign(document.createElement('div'), { style: `height: ${height}px` });
  log.append(line);
  return { log, line, autoscroll: await followedFromTheBottom(log) };
}

/** `log` followed from its bottom by a new AutoscrollController (settled: two frames after). */
async function followedFromTheBottom(log: HTMLElement) {
  const autoscroll = new AutoscrollController(host(), () => {});
  autoscroll.attach(log);
  autoscroll.toBottom();
  await waitUntil(() => log.scrollTop > 0 && log.scrollTop === log.scrollHeight - log.clientHeight, 'at the bottom');
  await nextFrame();
  await nextFrame();
  return autoscroll;
}

/**
 * The visitor scrolls `log` to `top`, in a task of its own as their wheel, touch or keys come;
 * resolves a frame after the scroll's event (the widget has heard of it).
 */
async function visitorScrolls(log: HTMLElement, top: number) {
  const scrolled = new Promise((resolve) => log.addEventListener('scroll', resolve, { once: true }));
  await new Promise((resolve) => setTimeout(resolve));
  log.scrollTop = top;
  await scrolled;
  await nextFrame();
}

/** Words enough to wrap: `n` of them. */
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

/**
 * A log 200 px high and `width` px wide of 20 paragraphs that wrap (narrower, it is taller), in
 * the page, followed from its bottom by `autoscroll`; and how far its view is from its bottom.
 */
async function wrappingLogAtTheBottom(width: number) {
  const log = document.createElement('div');
  log.style.cssText = `height: 200px; width: ${width}px; overflow-y: auto`;
  for (let i = 0; i < 20; i++) log.append(Object.assign(document.createElement('p'), { textContent: words(30) }));
  document.body.append(log);
  const fromBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight;
  const autoscroll = new AutoscrollController(host(), () => {});
  autoscroll.attach(log);
  autoscroll.toBottom();
  await waitUntil(() => log.scrollTop > 0 && fromBottom() < 1, 'at the bottom');
  await nextFrame();
  return { log, autoscroll, fromBottom };
}

describe('AutoscrollController', () => {
  it('told the log\'s size in the frame in which the visitor scrolled (the earliest; Firefox once told it frames late), it leaves the view where they took it', async () => {
    const log = scroller();
    try {
      const autoscroll = new AutoscrollController(host(), () => {});
      autoscroll.attach(log); // its size comes with the next frame, after its animation-frame callbacks
      autoscroll.toBottom(); // the log opens at the newest: in that frame's first callback
      const scrolled = new Promise((resolve) => log.addEventListener('scroll', resolve, { once: true }));
      // The visitor scrolls up after the widget's scroll, in the same frame (its event comes with the next).
      requestAnimationFrame(() => { log.scrollTop = 100; });
      await scrolled;
      await nextFrame();
      expect(log.scrollTop, 'where the visitor took it').to.equal(100);
      expect(autoscroll.pinned, 'reading further up').to.equal(false);
    } finally {
      log.remove();
    }
  });

  it('a log getting shorter at the bottom (a phone\'s keyboard opening) as a long reply comes, in the same frame: the visitor still follows, and the reply is shown from its start', async () => {
    const log = scroller();
    try {
      const autoscroll = new AutoscrollController(host(), () => {});
      autoscroll.attach(log);
      autoscroll.toBottom();
      await waitUntil(() => log.scrollTop === log.scrollHeight - log.clientHeight, 'at the bottom');
      await nextFrame();
      await nextFrame();
      // The log gets shorter: told with the next frame, the widget keeps it at the bottom (a scroll
      // whose event comes with the frame after). The reply comes in between, after that scroll: here
      // in the same delivery of sizes (this observer comes after the widget's).
      const reply = Object.assign(document.createElement('div'), { style: 'height: 500px' });
      let reports = 0;
      const replied = new Promise<void>((resolve) => {
        const observer = new ResizeObserver(() => {
          if (++reports === 1) return; // (its first report: the log as it is)
          observer.disconnect();
          log.append(reply);
          autoscroll.added(reply, 1);
          resolve();
        });
        observer.observe(log);
      });
      await waitUntil(() => reports === 1, 'the log observed');
      log.style.height = '100px';
      await replied;
      await followsAfterScrollEvent(autoscroll, log, reply);
    } finally {
      log.remove();
    }
  });

  for (const [where, style] of [['', ''], [', in a log a site gave borders and no padding', 'border-block: 6px solid; padding: 0']]) it(`a line at the bottom going (a status line, the typing indicator) takes the view up with it; a long reply that comes before the browser tells of that scroll is still shown from its start${where}`, async () => {
    const log = scroller();
    log.style.cssText += style;
    // (Taller than the slack within which a view still counts as at the bottom: a status line with its buttons.)
    const line = Object.assign(document.createElement('div'), { style: 'height: 80px' });
    try {
      const autoscroll = new AutoscrollController(host(), () => {});
      autoscroll.attach(log);
      autoscroll.toBottom();
      await waitUntil(() => log.scrollTop > 0 && log.scrollTop === log.scrollHeight - log.clientHeight, 'at the bottom');
      // A short reply, with a line under it: the view goes to its start, which is the bottom (it fits).
      const short = Object.assign(document.createElement('div'), { style: 'height: 40px' });
      log.append(short, line);
      autoscroll.added(short, 1);
      await waitUntil(() => log.scrollTop === log.scrollHeight - log.clientHeight, 'at the bottom again');
      await nextFrame();
      await nextFrame();
      const bottom = log.scrollTop;
      // In one task: the line goes, the browser lays the log out (the view goes up with its end:
      // a scroll, whose event comes with the next frame), and a long reply comes.
      line.remove();
      expect(log.scrollTop, 'the view went up with the end of the log').to.equal(bottom - 80);
      const reply = Object.assign(document.createElement('div'), { style: 'height: 500px' });
      log.append(reply);
      autoscroll.added(reply, 1);
      await followsAfterScrollEvent(autoscroll, log, reply);
    } finally {
      log.remove();
    }
  });

  it('replies that take the place of the typing line, the visitor scrolling up before the widget\'s frame (WebKit, in a random journey): they read further up, the view stays where they took it and the replies are counted', async () => {
    // The typing line, with the room around it, at the bottom.
    const { log, line: typing, autoscroll } = await logWithALineAtTheBottom(77);
    try {
      const scrolled = new Promise((resolve) => log.addEventListener('scroll', resolve, { once: true }));
      // The typing line goes and the replies come in its place (the log grows: the browser does
      // not move the view); before the widget's frame, the visitor scrolls up 118 px (here in the
      // same task: either way its event comes with that frame), and the first reply starts 41 px
      // below the view.
      const reply = Object.assign(document.createElement('div'), { style: 'height: 300px' });
      typing.replaceWith(reply);
      autoscroll.added(reply, 1);
      log.scrollTop -= 118;
      const there = log.scrollTop;
      expect(Math.round(reply.getBoundingClientRect().top - log.getBoundingClientRect().bottom), 'the reply starts below the view').to.equal(41);
      await scrolled;
      await nextFrame();
      await nextFrame();
      expect(log.scrollTop, 'where the visitor took it').to.equal(there);
      expect(autoscroll.pinned, 'reading further up').to.equal(false);
      expect(autoscroll.unread, 'the reply counted').to.equal(1);
    } finally {
      log.remove();
    }
  });

  it('a line at the bottom going as the visitor sends: their message is shown at the bottom, though the browser tells of the view going up with the log\'s end before the widget\'s frame', async () => {
    // (Taller than the slack within which a view still counts as at the bottom: a status line with its buttons.)
    const { log, line, autoscroll } = await logWithALineAtTheBottom(80);
    try {
      const bottom = log.scrollTop;
      // In one task: the line goes, the browser lays the log out (the view goes up with its end:
      // a scroll, whose event comes with the next frame, before the widget's), and the visitor's
      // message is drawn, as tall as the line was.
      line.remove();
      expect(log.scrollTop, 'the view went up with the end of the log').to.equal(bottom - 80);
      log.append(Object.assign(document.createElement('div'), { style: 'height: 80px' }));
      autoscroll.toBottom();
      // (Chromium does not tell of that scroll: the widget's frame takes the view back where it was.)
      await nextFrame();
      await nextFrame();
      await nextFrame();
      expect(log.scrollTop, 'at the bottom, their message in sight').to.equal(log.scrollHeight - log.clientHeight);
      expect(autoscroll.pinned, 'following the newest').to.equal(true);
    } finally {
      log.remove();
    }
  });

  it('a log narrower or wider (a phone turned, the mode switched, a window resized), its entries wrapping anew: a visitor following the newest stays at the bottom; one reading a long reply from its start, at its start', async () => {
    const { log, autoscroll, fromBottom } = await wrappingLogAtTheBottom(400);
    /** Two frames: the browser tells the new size with the first, after its animation-frame callbacks. */
    const resized = async (width: number) => {
      log.style.width = `${width}px`;
      await nextFrame();
      await nextFrame();
    };
    try {
      const height = log.scrollHeight;
      await resized(150);
      expect(log.scrollHeight, 'taller, wrapped anew').to.be.above(height);
      expect(fromBottom(), 'narrower: at the bottom').to.be.below(1);
      await resized(400);
      expect(fromBottom(), 'wider: at the bottom').to.be.below(1);
      const reply = Object.assign(document.createElement('p'), { textContent: words(200) });
      log.append(reply);
      autoscroll.added(reply, 1);
      const start = () => Math.round(reply.getBoundingClientRect().top - log.getBoundingClientRect().top);
      await waitUntil(() => start() === 6, 'the reply from its start');
      await resized(150);
      expect(start(), 'narrower: the reply from its start').to.equal(6);
      expect(autoscroll.pinned).to.equal(true);
    } finally {
      log.remove();
    }
  });

  it('a log made wider, then shorter, in a task of the page (a phone turned, the mode switched): the browser\'s scroll that keeps the view in the log comes before its new size is told, and is not the visitor\'s; a visitor following the newest stays at the bottom', async () => {
    const { log, autoscroll, fromBottom } = await wrappingLogAtTheBottom(200);
    try {
      await nextFrame();
      // In a task (not in a frame's callbacks: the log's size is told in the frame after): wider,
      // laid out (its entries wrap anew, shorter: the browser brings the view back into the log, a
      // scroll whose event comes with that frame, before the size), then shorter.
      const scrolled = new Promise((resolve) => log.addEventListener('scroll', resolve, { once: true }));
      await new Promise<void>((resolve) => setTimeout(() => {
        const before = log.scrollTop;
        log.style.width = '400px';
        expect(log.scrollTop, 'the view brought back into the shorter log').to.be.below(before);
        log.style.height = '100px';
        resolve();
      }));
      await scrolled;
      await nextFrame();
      await nextFrame();
      expect(autoscroll.pinned, 'still following the newest').to.equal(true);
      expect(fromBottom(), 'at the bottom').to.be.below(1);
    } finally {
      log.remove();
    }
  });

  it('two pictures above what the visitor reads, the second coming before the browser tells of the widget\'s scroll for the first (Firefox, in a random journey): what they read stays where it was', async () => {
    const block = (height: number) => Object.assign(document.createElement('div'), { style: `height: ${height}px` });
    const log = scroller();
    log.style.overflowAnchor = 'none'; // as in the widget's log (the browser's own anchoring kept nothing in place there)
    // Two pictures, not come yet (no size), above what the visitor will read.
    const [first, second, read] = [block(0), block(0), block(100)];
    log.prepend(block(1000), first, second, read);
    /** What is to happen as the next scroll event is told, before the widget hears of it (this listener comes first). */
    let asTheScrollIsTold: (() => void) | undefined;
    log.addEventListener('scroll', () => asTheScrollIsTold?.());
    const top = () => read.getBoundingClientRect().top - log.getBoundingClientRect().top;
    try {
      const autoscroll = await followedFromTheBottom(log);
      await visitorScrolls(log, 1020); // up, to 20 px into what they read
      expect(autoscroll.pinned, 'reading further up').to.equal(false);
      expect(top(), 'what they read, 20 px above the view\'s top').to.equal(-20);
      // The first picture comes: told of its size in the next frame, the widget scrolls down by its
      // height (its scroll event comes with the frame after). The second comes before that event is told.
      const secondCame = new Promise<void>((resolve) => {
        asTheScrollIsTold = () => {
          asTheScrollIsTold = undefined;
          second.style.height = '144px';
          resolve();
        };
      });
      first.style.height = '160px';
      await secondCame;
      await nextFrame();
      await nextFrame();
      expect(top(), 'what they read, where it was').to.equal(-20);
      expect(log.scrollTop, 'the view moved down by both pictures').to.equal(1020 + 160 + 144);
      expect(autoscroll.pinned, 'still reading further up').to.equal(false);
    } finally {
      log.remove();
    }
  });

  it('a visitor who read at the top, went to the newest, and goes back to the top (Home, twice): they read further up again, and a reply that comes is counted, not shown', async () => {
    const log = scroller();
    log.style.overflowAnchor = 'none';
    try {
      const autoscroll = await followedFromTheBottom(log);
      await visitorScrolls(log, 0);
      expect(autoscroll.pinned, 'reading at the top').to.equal(false);
      autoscroll.toBottom(); // (their own message, or the "new messages" control)
      await waitUntil(() => log.scrollTop === log.scrollHeight - log.clientHeight, 'at the newest');
      await nextFrame();
      await nextFrame();
      expect(autoscroll.pinned, 'following the newest').to.equal(true);
      await visitorScrolls(log, 0);
      expect(autoscroll.pinned, 'reading at the top again').to.equal(false);
      const reply = Object.assign(document.createElement('div'), { style: 'height: 300px' });
      log.append(reply);
      autoscroll.added(reply, 1);
      await nextFrame();
      await nextFrame();
      expect(log.scrollTop, 'still at the top').to.equal(0);
      expect(autoscroll.unread, 'the reply counted').to.equal(1);
    } finally {
      log.remove();
    }
  });

  it('a log hidden when the widget scrolled it (it scrolls nowhere then) is scrolled once shown, to a visitor following the newest', async () => {
    const log = scroller();
    log.style.display = 'none';
    try {
      const autoscroll = new AutoscrollController(host(), () => {});
      autoscroll.attach(log);
      autoscroll.toBottom();
      await nextFrame();
      await nextFrame();
      log.style.display = '';
      // (Told of its size with the next frame, or later: waited for.)
      await waitUntil(() => log.scrollTop === log.scrollHeight - log.clientHeight, 'at the bottom');
      expect(autoscroll.pinned).to.equal(true);
    } finally {
      log.remove();
    }
  });
});
