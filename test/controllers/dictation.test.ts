import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { FakeRecognition, hideRecognition, stubRecognition } from '../support/speech-recognition.js';
import { mount, part, shownText, typeDraft, useFakeProxies, waitForBubbles, waitForRequests } from '../support/widget.js';

const input = (chat: AgentChat) => part(chat, 'input') as HTMLTextAreaElement;
const mic = (chat: AgentChat) => part(chat, 'mic-button')!;

/** Clicks the microphone button and returns the recogniser it started. */
async function startDictation(chat: AgentChat) {
  const before = FakeRecognition.instances.length;
  mic(chat).click();
  await chat.updateComplete;
  expect(FakeRecognition.instances.length, 'one recogniser per click').to.equal(before + 1);
  const recognition = FakeRecognition.instances.at(-1)!;
  expect(recognition.calls).to.deep.equal(['start']);
  return recognition;
}

describe('<agent-chat> voice input', () => {
  const proxies = useFakeProxies();
  let restore: () => void;
  afterEach(() => restore());

  it('shows no microphone button where the browser has no speech recognition', async () => {
    restore = hideRecognition();
    const { chat } = await mount(proxies(), { open: true });
    expect(part(chat, 'mic-button')).to.equal(null);
    expect(part(chat, 'send-button'), 'the composer is otherwise whole').to.exist;
  });

  for (const name of ['webkitSpeechRecognition', 'SpeechRecognition'] as const) {
    it(`listens where the browser names speech recognition only ${name} (${name === 'SpeechRecognition' ? 'the spec, Firefox' : 'Chromium, Safari'})`, async () => {
      restore = stubRecognition([name]);
      const { chat } = await mount(proxies(), { open: true });
      const recognition = await startDictation(chat);
      recognition.hear('hello');
      await chat.updateComplete;
      expect(input(chat).value).to.equal('hello');
    });
  }

  it('fills the input with what is heard after what was typed, in the conversation language, without sending', async () => {
    restore = stubRecognition();
    const { chat, proxy } = await mount(proxies(), { open: true, attrs: { language: 'EL' } });
    await waitForBubbles(chat, 1);
    expect(mic(chat).getAttribute('aria-label')).to.equal('Υπαγόρευση μηνύματος');
    expect(mic(chat).getAttribute('aria-pressed')).to.equal('false');
    await typeDraft(chat, 'Καλημέρα  ');

    const recognition = await startDictation(chat);
    expect(recognition.lang).to.equal('el');
    expect(recognition.interimResults, 'words appear while speaking').to.equal(true);
    expect(mic(chat).getAttribute('aria-pressed')).to.equal('true');

    recognition.hear('θέλω');
    await chat.updateComplete;
    expect(input(chat).value).to.equal('Καλημέρα θέλω');
    recognition.hear('θέλω', ' ένα εισιτήριο');
    await chat.updateComplete;
    expect(input(chat).value).to.equal('Καλημέρα θέλω ένα εισιτήριο');
    recognition.end();
    await chat.updateComplete;
    expect(mic(chat).getAttribute('aria-pressed'), 'listening ended').to.equal('false');
    expect(input(chat).value, 'the words stay').to.equal('Καλημέρα θέλω ένα εισιτήριο');
    expect(proxy.requests, 'only the greeting: the visitor sends').to.have.length(1);

    (part(chat, 'send-button') as HTMLButtonElement).click();
    const bodies = await waitForRequests(proxy, 2);
    expect(bodies[1].message).to.deep.equal({ text: 'Καλημέρα θέλω ένα εισιτήριο' });
  });

  it('words heard past the length limit are kept, as typed ones are: the input invalid until shortened (they were cut off without a word)', async () => {
    restore = stubRecognition();
    const { chat, proxy } = await mount(proxies(), { open: true });
    await waitForBubbles(chat, 1);
    const typed = 'x'.repeat(1990);
    await typeDraft(chat, typed);
    const recognition = await startDictation(chat);
    recognition.hear('and the order number is 4711');
    recognition.end();
    await chat.updateComplete;
    expect(input(chat).value === `${typed} and the order number is 4711`, 'every word heard is in the input').to.equal(true);
    expect(input(chat).getAttribute('aria-invalid'), 'past the limit: invalid').to.equal('true');
    expect((part(chat, 'send-button') as HTMLButtonElement).disabled, 'not sent as it is').to.equal(true);
    expect(proxy.requests, 'only the greeting').to.have.length(1);
  });

  it('a second click stops listening and keeps the words; a result after that still lands', async () => {
    restore = stubRecognition();
    const { chat } = await mount(proxies(), { open: true });
    const recognition = await startDictation(chat);
    recognition.hear('book a');
    mic(chat).click();
    expect(recognition.calls).to.deep.equal(['start', 'stop']);
    // stop() asks for the final result, which arrives before the end event
    recognition.hear('book a table');
    recognition.end();
    await chat.updateComplete;
    expect(input(chat).value).to.equal('book a table');
    expect(mic(chat).getAttribute('aria-pressed')).to.equal('false');
  });

  for (const [what, act] of [
    ['typing', (chat: AgentChat) => typeDraft(chat, 'typed over')],
    ['sending', async (chat: AgentChat) => (part(chat, 'send-button') as HTMLButtonElement).click()],
    ['closing the panel', async (chat: AgentChat) => chat.hide()],
  ] as const) {
    it(`${what} stops listening and drops what arrives later`, async () => {
      restore = stubRecognition();
      const { chat } = await mount(proxies(), { open: true });
      const recognition = await startDictation(chat);
      recognition.hear('half a');
      await chat.updateComplete;
      expect(input(chat).value).to.equal('half a');
      await act(chat);
      await chat.updateComplete;
      expect(recognition.calls).to.deep.equal(['start', 'abort']);
      expect(mic(chat).getAttribute('aria-pressed')).to.equal('false');
      const after = input(chat).value;
      recognition.hear('half a sentence');
      await chat.updateComplete;
      expect(input(chat).value, 'a late result is ignored').to.equal(after);
      // The browser then tells of the abort: an "aborted" error, and the end.
      await recognition.ended;
      await chat.updateComplete;
      expect(shownText(chat, 'error'), 'the widget stopped listening itself: no error').to.equal(null);
      expect(input(chat).value).to.equal(after);
    });
  }

  it('typing over dictation and dictating again at once: the first recogniser telling of its abort late neither stops the second nor shows an error', async () => {
    restore = stubRecognition();
    FakeRecognition.holdAborts = true;
    const { chat } = await mount(proxies(), { open: true });
    await waitForBubbles(chat, 1);
    const first = await startDictation(chat);
    first.hear('half a');
    await typeDraft(chat, 'typed over');
    expect(first.calls).to.deep.equal(['start', 'abort']);
    const second = await startDictation(chat);
    first.release();
    await first.ended;
    await chat.updateComplete;
    expect(mic(chat).getAttribute('aria-pressed'), 'still listening, to the second').to.equal('true');
    expect(shownText(chat, 'error'), 'no error: the widget aborted the first').to.equal(null);
    second.hear('and then some');
    await chat.updateComplete;
    expect(input(chat).value).to.equal('typed over and then some');
    second.end();
    await chat.updateComplete;
    expect(mic(chat).getAttribute('aria-pressed')).to.equal('false');
  });

  it('says so when the microphone is blocked or missing, not when the visitor was silent', async () => {
    restore = stubRecognition();
    const { chat } = await mount(proxies(), { open: true, attrs: { language: 'DE' } });
    await waitForBubbles(chat, 1);
    (await startDictation(chat)).fail('no-speech');
    await chat.updateComplete;
    expect(part(chat, 'error'), 'silence is not an error').to.equal(null);
    expect(mic(chat).getAttribute('aria-pressed')).to.equal('false');

    (await startDictation(chat)).fail('not-allowed');
    await chat.updateComplete;
    expect(part(chat, 'error')!.textContent!.trim()).to.equal('Spracheingabe ist nicht verfügbar.');
    expect(part(chat, 'error')!.getAttribute('role')).to.equal('alert');
  });

  it('the microphone\'s problem goes with "New conversation": the new conversation starts without it', async () => {
    restore = stubRecognition();
    const { chat } = await mount(proxies(), { open: true });
    await waitForBubbles(chat, 1);
    (await startDictation(chat)).fail('not-allowed');
    await chat.updateComplete;
    expect(shownText(chat, 'error')).to.equal('Voice input is not available.');
    part(chat, 'restart-button')!.click();
    await chat.updateComplete;
    expect(shownText(chat, 'error'), 'gone').to.equal(null);
  });

  it('stops reading aloud before it listens, so it does not hear itself', async () => {
    restore = stubRecognition();
    const cancelled: string[] = [];
    const synthesis = { speak: () => undefined, cancel: () => cancelled.push('cancel'), getVoices: () => [] };
    Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
    try {
      const { chat } = await mount(proxies(), { open: true, attrs: { tts: '' } });
      await waitForBubbles(chat, 1);
      cancelled.length = 0;
      await startDictation(chat);
      expect(cancelled).to.deep.equal(['cancel']);
    } finally {
      delete (window as { speechSynthesis?: unknown }).speechSynthesis;
    }
  });

  it('stops listening when the element is removed', async () => {
    restore = stubRecognition();
    const { chat } = await mount(proxies(), { open: true });
    const recognition = await startDictation(chat);
    chat.remove();
    expect(recognition.calls).to.deep.equal(['start', 'abort']);
  });
});
