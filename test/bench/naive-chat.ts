/**
 * The naive reference for `npm run bench`: what a chat built the obvious way with the same three
 * libraries costs. A bare Lit element that keeps the messages in an array and re-renders the whole
 * list (markdown through marked, cleaned by DOMPurify) on every change. Not shipped.
 */
import DOMPurify from 'dompurify';
import { html, LitElement, type PropertyDeclarations } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { marked } from 'marked';

type Message = { from: 'user' | 'agent'; text: string };

class NaiveChat extends LitElement {
  static override properties: PropertyDeclarations = { messages: { state: true }, open: { state: true } };
  messages: Message[] = [];
  open = false;

  #post = async (message: object) => {
    const response = await fetch('/chat', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message }) });
    const { result } = await response.json();
    this.messages = [...this.messages, ...result.responses.map((r: { options: string[] }) => ({ from: 'agent', text: r.options[0] }))];
  };

  #toggle = () => {
    this.open = !this.open;
    if (this.open && !this.messages.length) void this.#post({ payload: { type: 'node', data: 'greeting' } });
  };

  #send = (event: Event) => {
    event.preventDefault();
    const input = this.renderRoot.querySelector('textarea')!;
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    this.messages = [...this.messages, { from: 'user', text }];
    void this.#post({ text });
  };

  override updated() {
    const log = this.renderRoot.querySelector('.log');
    if (log) log.scrollTop = log.scrollHeight;
  }

  override render() {
    return html`
      <button part="launcher" @click=${this.#toggle}>Chat</button>
      <section part="panel" ?hidden=${!this.open} style="display:flex;flex-direction:column;height:560px;width:380px">
        <div class="log" style="flex:1;overflow:auto">
          ${this.messages.map((m) => html`<div part="message" class=${m.from}>
            <div part=${m.from === 'agent' ? 'bubble bubble--agent' : 'bubble bubble--user'}>${unsafeHTML(DOMPurify.sanitize(marked.parse(m.text, { async: false })))}</div>
          </div>`)}
        </div>
        <form @submit=${this.#send}><textarea part="input"></textarea><button part="send-button">Send</button></form>
      </section>`;
  }
}

customElements.define('naive-chat', NaiveChat);
