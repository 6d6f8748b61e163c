import { AgentChat } from './agent-chat.component.js';

// Guarded so that a second copy of the script (two script tags, two bundles) is harmless; also
// skipped where there is no custom element registry (server-side rendering).
if (globalThis.customElements && !customElements.get('agent-chat')) {
  customElements.define('agent-chat', AgentChat);
}

export { AgentChat };

declare global {
  interface HTMLElementTagNameMap {
    'agent-chat': AgentChat;
  }
}
