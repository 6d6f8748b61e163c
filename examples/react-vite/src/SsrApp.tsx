// The same page, rendered on the server and hydrated in the browser. React 19 does not attach a
// custom element's on<event> props while hydrating (only at the next client render; facebook/react
// #35446), so the first reply would go unheard. Instead: add the listener in an effect, then load
// the widget there, so the element is defined, and greets, only once someone listens.
import type {} from 'agent-chat/react';
import type { AgentChatResponseEvent } from 'agent-chat';
import { useEffect, useRef, useState } from 'react';

export function SsrApp() {
  const [replies, setReplies] = useState(0);
  const chat = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = chat.current!;
    const onResponse = (event: AgentChatResponseEvent) => setReplies((n) => n + event.detail.responses.length);
    element.addEventListener('agent-chat-response', onResponse);
    void import('agent-chat');
    return () => element.removeEventListener('agent-chat-response', onResponse);
  }, []);
  return (
    <main style={{ maxWidth: 720, margin: '2rem auto', fontFamily: 'system-ui' }}>
      <h1>agent-chat in React 19, server-rendered</h1>
      <p id="replies">Replies received: {replies}</p>
      <div style={{ height: 480 }}>
        <agent-chat ref={chat} proxy-url="/chat" mode="inline" agent-title="React SSR example" />
      </div>
    </main>
  );
}
