import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How close to the bottom (px) still counts as "reading the newest messages". */
const PINNED_SLACK = 48;
/**
 * Room left above a reply scrolled to its start, so the visitor sees where it begins: less than the
 * room between messages (8 px, the entry's own), so that none of the message above shows, however
 * the browser rounds the scroll (at 8, up to a pixel of it did: a line of the visitor's bubble, in
 * the accent colour, under the header).
 */
const TOP_MARGIN = 6;

/**
 * Keeps the newest message in sight:
 * - the log opens (and reloads) at the bottom, and the visitor's own message brings it back there;
 * - a reply that arrives while the visitor reads the newest messages is scrolled to its *start*
 *   (a long reply is read from the top), or to the bottom if it fits;
 * - while the visitor has scrolled up, replies do not move the view: `unread` counts them, and
 *   `jump()` scrolls to the first of them; what they read stays in place as what is above it
 *   changes size (a picture that comes); scrolled to within a screen of the top, `nearTop` is
 *   told (the view brings back earlier messages).
 */
export class AutoscrollController implements ReactiveController {
  /** Replies that arrived below the view while the visitor was reading further up. */
  unread = 0;
  #firstUnread?: Element;
  #scroller?: HTMLElement;
  #pinned = true;
  /** What the next frame scrolls to: the start of this element, or (null) the bottom. */
  #target?: Element | null;
  #frame?: number;
  /** Replies that frame is to show. */
  #replies = 0;
  /** That frame's scroll is toBottom's. */
  #forced?: boolean;
  // Where our own scroll left the log. Its scroll event comes later, maybe after more content
  // arrived; measured then it would look like the visitor scrolled up.
  #ownScrollTop?: number;
  /**
   * The log's box changed: shown after it was not (an inline chat in a tab panel, a closed details
   * or a dialog the page shows later; a panel opened: a hidden log scrolls nowhere, and showed its
   * top, the oldest messages drawn), shorter (a phone's keyboard opening over a chat sized to the
   * screen, the input growing a line, a notice above it: the log kept its top where it was, and the
   * newest went out of sight below), or narrower or wider (a phone turned, a mode switched, a
   * window resized: its entries wrap anew, and the bottom moved). To a visitor following the newest,
   * the view goes back where the widget put it (the bottom, or the start of a long reply), by a
   * scroll of its own (its event comes with the next frame, maybe after a long reply: read as the
   * visitor's, it had them reading further up, and the reply was counted instead of shown). A log
   * shown at last, not if it has left that place since (the visitor scrolled, its event still to
   * come; or told late: Firefox once did, frames after); one resized, also then (Firefox keeps the
   * view where it was in proportion to the log's height: not the visitor's scroll).
   */
  readonly #resized = new ResizeObserver(() => {
    const s = this.#scroller!;
    if (s.clientHeight && this.#pinned && (this.#height || !this.#moved)) this.#scrollNow(this.#intent);
    // Hidden, the log lost its place (it shows its top again): where the widget had put it no longer
    // tells a visitor's scroll from none (taken for one, the log shown again stayed at its top).
    if (!(this.#height = s.clientHeight)) this.#ownScrollTop = undefined;
    this.#width = s.clientWidth;
  });
  /** The log's height when last observed: 0 while hidden (none: not yet observed). */
  #height?: number;
  /** Its width then (set with the height). */
  #width!: number;
  /** Where the widget last scrolled the log to (see #scrollTo), or where the visitor took it back to: the bottom (null, or none yet). */
  #intent?: Element | null;
  readonly #host: ReactiveControllerHost;
  /** Told when the visitor, reading further up, has scrolled to within a screen of the log's top. */
  readonly #nearTop: () => void;

  constructor(host: ReactiveControllerHost, nearTop: () => void) {
    this.#host = host;
    this.#nearTop = nearTop;
    host.addController(this);
  }

  hostConnected() {
    const s = this.#scroller;
    if (s) {
      s.addEventListener('scroll', this.#handleScroll);
      this.#resized.observe(s);
      for (const entries of s.children) this.#grown.observe(entries);
    }
  }

  /**
   * What is in the log changed size, its box not: a picture in a reply came (markdown pictures have
   * no size until then), whether or not its `load` event is told; the site's web font came or its
   * font changed (the messages wrap anew). To a visitor following the
   * newest, the view goes back where the widget put it (the bottom, or the start of a long reply),
   * before the frame is painted; not while a scroll of the widget's waits for its frame (entries
   * added: the view goes where they are), nor once the view has left where the widget put it (the
   * visitor scrolled, its event still to come). To a visitor reading further up, what they read
   * stays in place (see #read).
   */
  readonly #grown = new ResizeObserver(() => {
    const s = this.#scroller!;
    const read = this.#read;
    if (this.#height) {
      if (!this.#pinned) read && s.contains(read) && s.scrollTop == this.#readFrom && (s.scrollTop += this.#top(read) - this.#at, this.#readFrom = s.scrollTop);
      else if (!this.#frame && !this.#moved) this.#scrollNow(this.#intent);
    }
  });

  /**
   * What is at the view's top since the visitor's last scroll (the innermost element 1 px below
   * the log's top edge, inside any border a site gives it: on the border, it was the log itself, and
   * nothing was kept in place; the border's width is in the log's pixels, the point in the page's,
   * which differ where the page zooms the chat; as the browser's scroll anchoring picks one, entries have no room
   * between them that is not theirs):
   * to a visitor reading further up, when what is in the log grows or shrinks above it (a picture
   * in an earlier reply comes, late or as they scroll near it), the view follows it, before the
   * frame is painted (see #grown). The browser's own scroll anchoring is off in the log: it kept
   * nothing in place there, in any of the three engines (and the log keeps the view in place
   * itself as it brings earlier messages back, see MessageLogController#keepInView).
   */
  #read?: Element | null;
  /**
   * Its distance below the view's top then, and the log's scroll position: the view is not put
   * back once it has left that position by a scroll not yet told (the visitor's, in the frame
   * before its event; its event finds what is at the view's top then).
   */
  #at!: number;
  #readFrom!: number;

  /**
   * Where `element` starts below the top of the log's view (inside any border a site gives the log),
   * in the log's own pixels, those of its scrolling: a page's CSS `zoom` scales the boxes Chromium and
   * Firefox tell of, not them (at a zoom of 1.25, a long reply was scrolled past its start by a
   * quarter of its distance; WebKit, which has no `currentCSSZoom`, tells them unscaled).
   */
  #top(element: Element) {
    const s = this.#scroller!;
    return (element.getBoundingClientRect().y - s.getBoundingClientRect().y) / (s.currentCSSZoom || 1) - s.clientTop;
  }

  /** The view has left where the widget put it, by a scroll not yet told (the visitor's, most often). */
  get #moved() {
    const own = this.#ownScrollTop;
    return !!own && own != this.#scroller!.scrollTop;
  }

  hostDisconnected() {
    this.#unobserve();
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = this.#forced = undefined;
  }

  #unobserve() {
    this.#scroller?.removeEventListener('scroll', this.#handleScroll);
    this.#resized.disconnect();
    this.#grown.disconnect();
  }

  /** Hands over the scrolling element (again after each render; a no-op when unchanged). */
  readonly attach = (element?: Element) => {
    if (element === this.#scroller || !(element instanceof HTMLElement)) return;
    this.#unobserve();
    this.#scroller = element;
    this.hostConnected();
  };

  /** Whether the visitor reads the newest messages (the view follows them). */
  get pinned() {
    return this.#pinned;
  }

  /**
   * Scrolls to the newest message (the panel opened, the visitor sent, the log was redrawn), in the
   * next frame whatever scroll is told before it (see #handleScroll).
   */
  toBottom() {
    this.#forced = this.#pinned = true;
    this.#setUnread(0);
    this.#scrollTo(null);
  }

  /** Something at the bottom grew (a status line, the typing indicator): stay at the bottom if following. */
  keep() {
    if (this.#pinned && !this.#frame) this.#scrollTo(null);
  }

  /**
   * Call after entries were added at the bottom: `first` is the first of them, `replies` how many
   * are replies the visitor has not read.
   */
  added(first: Element, replies: number) {
    this.#since ??= first;
    // Several batches in one frame: the view goes to the start of the first of them with replies
    // (counted instead, if the visitor reads further up by then: see #scrollTo).
    if (!this.#frame || !this.#target) this.#scrollTo(replies ? first : null);
    this.#replies += replies;
  }

  /** Scrolls to the first reply the visitor has not seen (the "new messages" control). */
  jump() {
    const first = this.#firstUnread;
    this.#pinned = true;
    this.#setUnread(0);
    this.#scrollTo(first ?? null);
  }

  #setUnread(count: number) {
    if (!count) this.#firstUnread = undefined;
    if (count === this.unread) return;
    this.unread = count;
    this.#host.requestUpdate();
  }

  /**
   * The scroll waits for the next frame: reading layout forces it, and one per frame is enough
   * however many messages arrived.
   */
  #scrollTo(target: Element | null) {
    this.#target = target;
    this.#frame ??= requestAnimationFrame(() => {
      const target = this.#target!;
      const replies = this.#replies;
      this.#frame = this.#target = this.#forced = undefined;
      this.#replies = 0;
      // Not following (the visitor reads further up, or scrolled away since: the scroll event
      // comes with this frame, before it), the view stays where they took it: the replies are counted.
      if (this.#pinned) return this.#scrollNow(target);
      if (!replies) return;
      this.#firstUnread ??= target!;
      this.#setUnread(this.unread + replies);
    });
  }

  /** Scrolls to the start of `target` (if it fits below it), or (null) to the bottom. */
  #scrollNow(target?: Element | null) {
    const s = this.#scroller;
    this.#intent = target;
    if (!s) return;
    const bottom = s.scrollHeight - s.clientHeight;
    const start = target?.isConnected
      ? this.#top(target) + s.scrollTop - TOP_MARGIN
      : bottom;
    s.scrollTop = Math.min(bottom, start);
    this.#ownScrollTop = s.scrollTop;
    this.#since = undefined;
  }

  /** The first entry added since the widget's own last scroll. */
  #since?: Element;

  readonly #handleScroll = () => {
    const s = this.#scroller!;
    // The log's box changed since last observed, its new size not yet told (laid out in a task of
    // the page, it is told later in the frame that tells this scroll: a phone turned, the mode
    // switched): the browser's scroll, keeping the view in the log, not the visitor's. Told of the
    // size, the widget puts the view back, to a visitor following the newest.
    // Nor one told while the visitor's own message (or the panel opening) waits for its frame to take
    // them to the newest: the browser's (a line at the bottom gone as they sent, the view going up
    // with the log's end; taken for theirs, the log stayed there and their message below the view).
    // Nor one to where the widget kept what the visitor reads in place (see #grown): what they read
    // is what it was (found anew, it would be what is there when the event is told: after a second
    // picture above it came, that picture, and the view no longer followed it).
    if (this.#forced || this.#height && (s.clientHeight - this.#height || s.clientWidth - this.#width) || !this.#pinned && s.scrollTop == this.#readFrom) return;
    // At the place we scrolled to (the start of a reply, or the bottom) the visitor is following.
    if (s.scrollTop === this.#ownScrollTop) {
      this.#pinned = true;
      return;
    }
    const since = this.#since;
    this.#ownScrollTop = this.#since = undefined;
    // Near the bottom; or, the first scroll told since the widget's own, at the bottom as it was
    // before the entries added since came (the first of them starts at the bottom of the log's view
    // or above it, not below, whatever border and padding a site gives the log): the browser's scroll
    // of a log at its bottom (a line there gone, a status line or the typing indicator, the view
    // going up with the log's end), not the visitor's. (Entries that took the place of such a line
    // made the log no shorter: the browser did not scroll; a visitor's scroll up before the
    // widget's frame leaves the first of them below the view.)
    this.#pinned = s.scrollHeight - s.scrollTop - s.clientHeight <= PINNED_SLACK || (!!since?.isConnected && this.#top(since) - s.clientHeight < 1);
    if (this.#pinned) {
      this.#intent = null;
      this.#setUnread(0);
    } else if (s.scrollTop < s.clientHeight) this.#nearTop();
    const box = s.getBoundingClientRect();
    const read = (this.#read = (s.getRootNode() as ShadowRoot).elementFromPoint(box.x + box.width / 2, box.y + (s.clientTop + 1) * (s.currentCSSZoom || 1)));
    if (read) this.#at = this.#top(read);
    this.#readFrom = s.scrollTop;
  };
}
