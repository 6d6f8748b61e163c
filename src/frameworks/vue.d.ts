/**
 * `<agent-chat>` in Vue 3 templates, typed: `import type {} from 'agent-chat/vue';` once in the app,
 * and tell the compiler it is a custom element (`isCustomElement: (tag) => tag === 'agent-chat'`).
 * Events are `@agent-chat-response` and friends.
 */
import type { DefineComponent } from 'vue';
import type { AgentChatElementProps } from './element-props.js';
import type {
  AgentChatErrorEvent, AgentChatHideEvent, AgentChatResponseEvent, AgentChatSendEvent, AgentChatShowEvent,
} from '../events.js';

type Props = Omit<AgentChatElementProps, `on${string}`>;
type Emits = {
  'agent-chat-show': (event: AgentChatShowEvent) => void;
  'agent-chat-hide': (event: AgentChatHideEvent) => void;
  'agent-chat-send': (event: AgentChatSendEvent) => void;
  'agent-chat-response': (event: AgentChatResponseEvent) => void;
  'agent-chat-error': (event: AgentChatErrorEvent) => void;
};

declare module 'vue' {
  interface GlobalComponents {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    'agent-chat': DefineComponent<Props, {}, {}, {}, {}, {}, {}, Emits>;
  }
}

export {};
