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

describe('AutoscrollController', () => {
  it('told the log\'s size in the frame in which the visitor scrolled (the earliest; Firefox once told it frames late), it leaves the view where they took it', async () => {
    const log = scroller();
    try {
      const autoscroll = new AutoscrollController(host());
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

  it('a log hidden when the widget scrolled it (it scrolls nowhere then) is scrolled once shown, to a visitor following the newest', async () => {
    const log = scroller();
    log.style.display = 'none';
    try {
      const autoscroll = new AutoscrollController(host());
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
