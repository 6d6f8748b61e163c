import type { ConversationController } from '../controllers/conversation-controller.js';
import type { DeliveryController, DeliveryJob } from '../controllers/delivery-controller.js';
import { isWaiting } from '../conversation/transcript.js';

/**
 * Which tab sends what waits to be sent: the messages and held requests stored in the conversation
 * (the outbox), which every tab of the site shares. One tab at a time sends them (it holds a Web
 * Lock), each item once, in the order they were made; a tab closed mid-send has its items taken up
 * by another (see `adopt`). One per ChatSession, for its life.
 */
export interface Outbox {
  /** This tab (page): what it makes is marked so, and it holds a Web Lock of this name while it is started. */
  readonly tab: string;
  /** This tab sends: it holds the outbox, or it made the one item waiting and asked for it (see `adopt`). */
  readonly sending: boolean;
  /**
   * The session started: this tab holds its lock while it may send what it made (another tab takes
   * up its items only once it is gone). Granted later, after a stop(): not held then (after
   * another start(), held until the next stop).
   */
  start(): void;
  /**
   * The session stopped: the locks this tab holds (its own, and the gone tabs' items it took up) are
   * let go, and those it asked for (the outbox, gone tabs') are asked for no more: a page in the
   * back/forward cache must not get one there. start() asks again for what it still needs.
   */
  stop(): void;
  /**
   * Sends what is stored as waiting for delivery, in the order it was made, each item from one tab:
   * only the tab that holds the outbox (a Web Lock) sends, and it holds it until its queue is empty.
   * A tab that asks for it takes up, once granted, what waited when it asked (another tab's, if that
   * tab has not sent it meanwhile: it was closed or reloaded mid-send) and what it made since; a tab
   * that holds it sends what it makes next, and what another tab stores meanwhile waits for that
   * tab's turn but wakes this queue at once (the visitor is here, as a send does in one tab; so does
   * "Retry now" there). So a message typed in a second tab never overtakes the greeting or a
   * message the first is sending.
   * When nothing else waits, a tab sends what it makes (`made`) at once while it asks (its request
   * comes before its write, so no tab granted the outbox after it takes that up).
   * Called on start, on every change from another tab and for each new item.
   */
  adopt(made?: string): void;
  /** What is stored as waiting for delivery and not in this tab's queue: messages and held requests, in the order they were made. */
  orphans(): DeliveryJob[];
}

/** The outbox of a session whose conversation and delivery queue these are; `started` says whether it sends. */
export function createOutbox(conversation: ConversationController, delivery: DeliveryController, started: () => boolean): Outbox {
  const tab = `agent-chat:tab:${Math.random()}`;
  let sending = false;
  /** This tab asked for the outbox: what it takes up once granted. */
  let asked: string[] | undefined;
  /** Settles when this tab stops: the locks it holds for it (its own, and the items it took up) are let go. */
  let gone: Promise<unknown> | undefined;
  /**
   * Aborted when this tab stops (settling `gone`): the locks it asked for and has not got are asked
   * for no more (the options of each request: its `signal`). A page frozen in the back/forward
   * cache would get them there (Chromium grants it a lock it asked for) and hold them, the outbox
   * among them, until the visitor came back to it: no other tab could send meanwhile.
   */
  let stopping: AbortController;
  /**
   * Asks for the Web Lock `name` until this tab stops (see `stopping`), `then` run holding it: a
   * request called off so (rejected with the signal's reason, an "AbortError" DOMException, whose
   * code is 20) is no failure; any other is thrown on.
   */
  const ask = (name: string, then: () => unknown) => navigator.locks ? navigator.locks.request(name, stopping, then).catch((error: DOMException) => {
    if (error.code != 20) throw error; // DOMException.ABORT_ERR
  }) : then();
  /** The gone tabs' items this tab took up since it started (it holds their locks). */
  let claimed = new Set<string>();

  const orphans = (): DeliveryJob[] => {
    const { messages, held = [] } = conversation.conversation;
    return [
      ...messages.filter(isWaiting).map((m) => ({ id: m.id, at: m.at, message: m.request, userMessageId: m.id, by: m.by })),
      ...held,
    ].filter((job) => !delivery.has(job.id)).sort((a, b) => a.at - b.at);
  };

  /**
   * Takes up a gone tab's item: a Web Lock named for it, held until this tab stops, that no other tab
   * then gets; this tab keeps it (a new conversation's Undo brings back an item it had taken up).
   * Another tab holding it: not granted, and this tab's next turn looks again (see `adopt`).
   */
  const claim = (id: string) => {
    const until = gone;
    const mine = claimed;
    const name = `agent-chat:item:${id}`;
    return new Promise<boolean>((resolve) => {
      if (!navigator.locks || mine.has(id)) return resolve(true);
      void navigator.locks.request(name, { ifAvailable: true }, (lock) => {
        if (lock) mine.add(id);
        resolve(!!lock);
        return lock && until;
      });
    });
  };

  const adopt = (made?: string): unknown => {
    // Stopped (an element removed, a page in the back/forward cache): sends nothing, holds no lock.
    if (!started()) return;
    const waiting = orphans();
    const own = waiting.find((job) => job.id === made);
    // Holding it: what this tab makes goes next, unless an older item of another tab waits (it
    // waits for this tab's next turn, behind that tab's, as the visitor wrote them).
    if (sending) return own && waiting[0] === own ? delivery.enqueue(own) : waiting[0] && delivery.retryNow();
    if (asked) return own && asked.push(own.id);
    if (!waiting[0]) return;
    if ((sending = !!own && !waiting[1])) delivery.enqueue(own!);
    const taken = (asked = waiting.map((job) => job.id));
    // Sent holding the outbox lock, until the promise settles (without Web Locks, at once).
    void ask(conversation.outboxLock, async () => {
      // Another tab's item only once that tab is gone (closed, reloaded, stopped): one still open
      // sends its own, and this tab's copy of the conversation may not show yet that it has (tabs
      // hear of each other's writes a moment late, and of the outbox's release sooner).
      const open = (await navigator.locks?.query())?.held?.map((lock) => lock.name) ?? [];
      asked = undefined;
      // Stopped while it waited (an element removed, a page in the back/forward cache): it leaves
      // the conversation alone (TAB_SEEDS=138), and the next element (or this one, started again) looks again.
      if (!(sending = started())) return;
      conversation.refresh();
      for (const job of orphans()) {
        // Its tab is open (or just closing): it sends it, and what was made after it waits for
        // this tab's next turn, behind that tab's (the order the visitor wrote them in, whatever
        // the tab). That tab asked for the outbox before it stored its item, so this tab's next
        // turn comes after that tab's, or once that tab is gone.
        if (job.by !== tab && open.includes(job.by!)) break;
        // Made after this tab asked, by a tab gone since: at this tab's next turn, and what was made
        // after it waits with it.
        if (!taken.includes(job.id)) break;
        // A gone tab's item: two tabs may both take it up (a reload's new page and another tab),
        // and the second may not read yet that the first sent it; a Web Lock named for it, kept
        // until this tab stops, lets one only. Another open tab has it: like that tab's own.
        if (job.by !== tab && !(await claim(job.id))) break;
        delivery.enqueue(job);
      }
      // (a restart() empties the queue, and its greeting may be queued before this goes on)
      while (delivery.pending.length && started()) await delivery.whenIdle();
      sending = false;
      // Ask again, behind the other tabs that asked meanwhile, for what still waits: what was
      // stored while this tab held it, by a tab that may be gone by now, and what it left to another
      // tab above. So an item another open tab took up or made is looked at again once that tab
      // has had its turn or is gone, with no lock asked for each such tab or item: while this
      // tab's copy of storage is behind (until the other tab's write reaches it), its turns follow each
      // other (about one a millisecond), and it sends nothing that way.
      adopt();
    });
  };

  return {
    tab,
    get sending() {
      return sending;
    },
    start() {
      gone = new Promise((resolve) => ((stopping = new AbortController()).signal.onabort = resolve));
      claimed = new Set();
      void navigator.locks?.request(tab, () => (started() ? gone : undefined));
    },
    stop() {
      // (What it asked for and has not got it asks for again when it starts: see `stopping`.) Nor is
      // it sending any more: a tab that sent what it made at once, while it asked for the outbox,
      // stayed `sending` when this called that request off, as the callback that ends it never ran
      // (a message sent as the element was taken out waited, "Sending…", after it came back).
      stopping.abort();
      asked = undefined;
      sending = false;
    },
    adopt,
    orphans,
  };
}
