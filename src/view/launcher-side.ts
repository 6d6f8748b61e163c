import { render } from 'lit/html.js';
import type { AgentChat } from '../agent-chat.component.js';
import type { NudgeController } from '../controllers/nudge-controller.js';
import type { ChatMessage } from '../conversation/transcript.js';
import type { Strings } from '../i18n/strings.js';
import type { Shell } from '../shell/contract.js';
import { launcherState, renderLauncher } from '../views/launcher.js';
import type { ViewHost } from './view-host.js';

type NudgeFeature = typeof import('./nudge-feature.js');

/**
 * What the view shows outside the panel: inside the shell's launcher (the icon, the badge of
 * replies that arrived while closed) and beside it (a preview of the newest of them, or the site's
 * teaser; their code is a chunk loaded when first needed: when the panel closes, or for a teaser).
 */
export class LauncherSide {
  /** Replies that arrived while the panel was closed. */
  #unseen = 0;
  /** The id of the newest of them (the preview's), and when it came (set with the count). */
  #newest?: string;
  #newestAt!: number;
  /**
   * When the newest message the visitor has seen in another tab came (see read()); none before
   * that, which no message's time is at or before.
   */
  #readAt!: number;
  #nudge?: NudgeController;
  #render?: NudgeFeature['renderNudge'];
  /** Where the nudge is drawn, beside the launcher. */
  #nudgeHost?: HTMLElement;
  /** The launcher button the view draws in. */
  #button?: HTMLButtonElement;
  readonly #host: ViewHost;
  readonly #shell: Shell;
  readonly #el: AgentChat;
  readonly #load: () => Promise<NudgeFeature>;
  readonly #started: () => boolean;

  /**
   * `load` brings the nudge's chunk (through the view, whose `updateComplete` waits for it);
   * `started` says whether the visitor has a conversation (then no teaser).
   */
  constructor(host: ViewHost, shell: Shell, load: () => Promise<NudgeFeature>, started: () => boolean) {
    this.#host = host;
    this.#shell = shell;
    this.#el = shell.element;
    this.#load = load;
    this.#started = started;
  }

  /** Loads the preview and teaser's code (once) and makes their controller. */
  prepare(): Promise<NudgeController> {
    return this.#load().then(({ NudgeController, renderNudge }) => {
      this.#render = renderNudge;
      return (this.#nudge ??= new NudgeController(this.#host, {
        teaser: () => this.#el.teaser,
        delay: () => this.#el.teaserDelay,
        allowed: () => this.#el.mode !== 'inline' && !this.#el.open,
        element: () => this.#el,
        started: this.#started,
      }));
    });
  }

  /**
   * Replies arrived while the panel is closed: the badge, the preview and their announcement change
   * together, once (the preview's code is usually loaded already; a failed load leaves the badge alone).
   */
  arrived(messages: readonly ChatMessage[], replies: number) {
    const { id, at, item } = messages.findLast((m) => m.kind === 'agent')!;
    const count = () => {
      if (this.#el.open || at <= this.#readAt) return false;
      this.#unseen += replies;
      this.#newest = id;
      this.#newestAt = at;
      this.#host.requestUpdate();
      return true;
    };
    this.prepare().then((nudge) => count() && nudge.preview(item), count);
  }

  opened() {
    this.#unseen = 0;
    this.#nudge?.dismiss();
    this.#host.requestUpdate();
  }

  /**
   * The visitor has seen, in another tab, the messages that came up to `at`: news of them goes here
   * (also news still on its way: the preview's code loading as the notice comes).
   */
  read(at: number) {
    this.#readAt = at;
    if (this.#unseen && this.#newestAt <= at) this.opened();
  }

  /**
   * The conversation is now `messages` (a new one began, here or in another tab, or one came back):
   * news of replies no longer in it goes, badge and preview (a site's `restart()` as a visitor logs
   * out leaves nothing of the conversation on screen). With `readAt`, as read from storage (the
   * session started: a page of the site loaded, or one came back from the back/forward cache, which
   * heard nothing while away): news the visitor has seen since goes, and the replies they have seen
   * in no tab (that came after `readAt`) are the badge's, as they were on the page they came to
   * while the panel was closed (not the preview's: that page told of them).
   */
  shown(messages: readonly ChatMessage[], readAt?: number) {
    if (this.#unseen && !messages.some((m) => m.id === this.#newest)) this.opened();
    // (Another tab's change, shown: nothing to count again.)
    if (readAt === undefined) return;
    this.read(readAt);
    const unseen = messages.filter((m) => m.kind === 'agent' && m.at > readAt);
    if (unseen[0] && !this.#el.open) {
      this.#unseen = unseen.length;
      ({ id: this.#newest, at: this.#newestAt } = unseen.at(-1)!);
      this.#host.requestUpdate();
    }
  }

  /**
   * Loads the preview and teaser's code ahead of need (closed, for a reply that arrives meanwhile; a
   * teaser to show). A load that fails (offline) is tried again at the next need.
   */
  preload() {
    this.prepare().catch(() => {});
  }

  /** Draws the launcher's content and labels, and the nudge beside it (none inline). */
  draw(strings: Strings) {
    const { open } = this.#el;
    const nudge = this.#nudge?.current;
    const button = this.#shell.drawLauncher(this.#el.mode === 'inline' ? undefined : launcherState(open, this.#unseen, strings, nudge));
    if (button) {
      // A button the shell just made holds its own icon: from here the view draws inside it.
      if (button !== this.#button) button.replaceChildren();
      render(renderLauncher(open, this.#unseen), (this.#button = button));
    }
    if (nudge || this.#nudgeHost) {
      this.#nudgeHost ??= this.#shell.root.appendChild(document.createElement('div'));
      render(this.#render!(nudge, strings, () => this.#el.show(), () => this.#nudge!.dismiss()), this.#nudgeHost, { host: this.#host });
    }
  }
}
