/** The lazily loaded rest of the widget: the shell (src/agent-chat.component.ts) calls `attach`. */
import type { Shell, View } from '../shell/contract.js';
import { ChatView } from './chat-view.js';

export const attach = (shell: Shell): View => new ChatView(shell);
