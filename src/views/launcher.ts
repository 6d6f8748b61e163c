import { html, nothing } from 'lit/html.js';
import type { Strings } from '../i18n/strings.js';
import type { Nudge } from '../controllers/nudge-controller.js';
import type { LauncherState } from '../shell/contract.js';
import { icon, ICONS } from './icons.js';

/**
 * What the shell's launcher says once the view has loaded: open or closed, labelled and announced
 * in the conversation's language, with the count of replies that arrived while closed.
 */
export const launcherState = (open: boolean, unread: number, strings: Strings, nudge?: Nudge): LauncherState => ({
  open,
  label: open ? strings.closeChat : unread ? `${strings.openChat} (${strings.newMessages(unread)})` : strings.openChat,
  // A preview says what arrived (the newest; how many, when more did); a teaser is said as written.
  announcement: nudge?.kind === 'teaser' ? nudge.text
    : nudge ? (unread > 1 ? `${strings.newMessages(unread)}: ${nudge.text}` : strings.newMessagePreview(nudge.text))
      : unread ? strings.newMessages(unread) : '',
});

/** Inside the launcher: the icon of what a click does, and the badge of unread replies. */
export const renderLauncher = (open: boolean, unread: number) => html`${icon(open ? ICONS.close : ICONS.chat, 26)}${unread
  ? html`<span part="badge" class="badge" aria-hidden="true">${unread}</span>`
  : nothing}`;
