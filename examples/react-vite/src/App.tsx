// Registers <agent-chat>; the type import makes its attributes, properties and events type-check.
import 'agent-chat';
import type {} from 'agent-chat/react';
import type { AgentChatResponseEvent } from 'agent-chat';
import { useState } from 'react';

export function App() {
  const [replies, setReplies] = useState(0);
  // React 19 passes on<event-name> props to addEventListener('<event-name>').
  const onResponse = (event: AgentChatResponseEvent) => setReplies((n) => n + event.detail.responses.length);
  return (
    <main style={{ maxWidth: 720, margin: '2rem auto', fontFamily: 'system-ui' }}>
      <h1>agent-chat in React 19</h1>
      <p id="replies">Replies received: {replies}</p>
      <div style={{ height: 480 }}>
        <agent-chat proxy-url="/chat" mode="inline" agent-title="React example" onagent-chat-response={onResponse} />
      </div>
    </main>
  );
}
