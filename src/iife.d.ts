/**
 * Types for `agent-chat/iife`, the classic-script build: loading it registers `<agent-chat>` and
 * sets the global `AgentChat` to everything the module entry exports.
 */
import type * as AgentChatModule from './index.js';

declare global {
  // eslint-disable-next-line no-var
  var AgentChat: typeof AgentChatModule;
}

export {};
