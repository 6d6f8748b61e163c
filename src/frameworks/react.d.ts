/**
 * `<agent-chat>` in React 19 TSX: `import type {} from 'agent-chat/react';` once in the app. React 19
 * sets known properties as properties and turns `on<event-name>` props into listeners, so every
 * attribute, property and event of the element type-checks here.
 */
import type { AgentChatElementProps } from './element-props.js';

type ReactProps = AgentChatElementProps & {
  ref?: unknown;
  key?: string | number;
  id?: string;
  class?: string;
  className?: string;
  style?: unknown;
  slot?: string;
  hidden?: boolean;
  children?: unknown;
};

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'agent-chat': ReactProps;
    }
  }
}

export {};
