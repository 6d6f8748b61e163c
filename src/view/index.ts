/** The lazily loaded rest of the widget: the shell (src/agent-chat.component.ts) calls `attach`. */
import { loadStrings } from '../i18n/strings.js';
import type { Shell, View } from '../shell/contract.js';
import { ChatView } from './chat-view.js';

/** The view for the shell's element, once the UI text of its language is there (English is built in). */
export async function attach(shell: Shell): Promise<View> {
  await loadStrings(shell.element.language || document.documentElement.lang);
  return new ChatView(shell);
}

// The public renderer API (`agent-chat/renderers`) is this module too: one copy of each renderer
// and of the libraries, whether a site imports it or the shell loads the view.
export * from '../renderers/index.js';
