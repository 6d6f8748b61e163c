// Compiled by `npm run build` (tsc), never rendered: proof that the typings reject mistakes.
import type {} from 'agent-chat/react';

export const wrong = [
  // @ts-expect-error proxy-url is a string
  <agent-chat proxy-url={42} />,
  // @ts-expect-error mode is "launcher" or "inline"
  <agent-chat mode="sidebar" />,
  // @ts-expect-error the listener gets an AgentChatResponseEvent, whose detail has responses
  <agent-chat onagent-chat-response={(e) => e.detail.nope} />,
];
