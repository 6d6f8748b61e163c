// Demo page wiring (an external file: the page's CSP allows no inline script).
const chats = [...document.querySelectorAll('agent-chat')];
const launcher = document.getElementById('launcher-chat');
const log = document.getElementById('event-log');

document.getElementById('language').addEventListener('change', (event) => {
  for (const chat of chats) chat.language = event.target.value;
  document.documentElement.lang = event.target.value.toLowerCase();
});
document.getElementById('theme').addEventListener('change', (event) => {
  for (const chat of chats) if (!chat.classList.contains('theme-night')) chat.theme = event.target.value || undefined;
});
document.getElementById('position').addEventListener('change', (event) => {
  launcher.position = event.target.value;
});
document.getElementById('rtl').addEventListener('change', (event) => {
  document.documentElement.dir = event.target.checked ? 'rtl' : 'ltr';
});
document.getElementById('tts').addEventListener('change', (event) => {
  for (const chat of chats) chat.tts = event.target.checked;
});
document.getElementById('tag-vip').addEventListener('click', () => {
  for (const chat of chats) chat.updateTags({ add: ['vip'] });
});
document.getElementById('open-launcher').addEventListener('click', () => launcher.show());
// A site's own question, asked for the visitor with the panel closed: its answer is counted on the launcher.
document.getElementById('ask-closed').addEventListener('click', () => launcher.send('What plans do you have?'));
document.getElementById('voice-input').append(
  'SpeechRecognition' in window || 'webkitSpeechRecognition' in window ? ' This browser has it.' : ' This browser has none.',
);

const describe = (event) => {
  const { detail } = event;
  if (!detail) return '';
  if (event.type === 'agent-chat-send') return JSON.stringify(detail.message);
  if (event.type === 'agent-chat-response') {
    return `${detail.responses.length} repl${detail.responses.length === 1 ? 'y' : 'ies'}${detail.nodesIds ? ` from ${[...new Set(detail.nodesIds)].join(', ')}` : ''}`;
  }
  if (event.type === 'agent-chat-error') return `${detail.kind} ${detail.status ?? ''} ${detail.message}`;
  if (event.type === 'agent-chat-feedback') return `${detail.rating} on ${detail.responseId ?? 'a reply'}, tag ${detail.tag}`;
  return '';
};
for (const type of ['agent-chat-show', 'agent-chat-hide', 'agent-chat-send', 'agent-chat-response', 'agent-chat-error', 'agent-chat-feedback']) {
  document.addEventListener(type, (event) => {
    const item = document.createElement('li');
    const source = event.target.id || event.target.className || 'agent-chat';
    item.textContent = `${new Date().toLocaleTimeString()} ${source} ${type} ${describe(event)}`;
    log.prepend(item);
    while (log.children.length > 50) log.lastChild.remove();
  });
}
