import type { Strings } from '../i18n/strings.js';
import type { LauncherState } from '../shell/contract.js';

/**
 * What the shell's launcher shows once the view has loaded: open or closed, the count of replies
 * that arrived while closed (its badge), labelled and announced in the conversation's language.
 */
export const launcherState = (open: boolean, unread: number, strings: Strings): LauncherState => ({
  open,
  unread,
  label: open ? strings.closeChat : unread ? `${strings.openChat} (${strings.newMessages(unread)})` : strings.openChat,
  announcement: unread ? strings.newMessages(unread) : '',
});
