/** What frameworks may pass to `<agent-chat>`: its attributes, properties and event listeners. */
import type { AgentChat } from '../agent-chat.component.js';
import type {
  AgentChatErrorEvent, AgentChatHideEvent, AgentChatResponseEvent, AgentChatSendEvent, AgentChatShowEvent,
} from '../events.js';

type Settable = 'proxyUrl' | 'open' | 'greeting' | 'language' | 'mode' | 'theme' | 'position' | 'tts' | 'agentTitle'
  | 'userName' | 'userEmail' | 'sessionTimeout' | 'includeMetadata' | 'renderers' | 'strings';

export type AgentChatElementProps = Partial<Pick<AgentChat, Settable>> & {
  'proxy-url'?: string;
  'agent-title'?: string;
  'user-name'?: string;
  'user-email'?: string;
  'session-timeout'?: number | string;
  'include-metadata'?: boolean;
  'onagent-chat-show'?: (event: AgentChatShowEvent) => void;
  'onagent-chat-hide'?: (event: AgentChatHideEvent) => void;
  'onagent-chat-send'?: (event: AgentChatSendEvent) => void;
  'onagent-chat-response'?: (event: AgentChatResponseEvent) => void;
  'onagent-chat-error'?: (event: AgentChatErrorEvent) => void;
};
