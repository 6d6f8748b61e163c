import { expect, fixtureCleanup, waitUntil } from '@open-wc/testing';
import { FakeProxy, text } from '../support/fake-proxy.js';
import { mount, part, typeDraft, waitForBubbles, waitForRequests } from '../support/widget.js';

/** A stand-in for `window.speechSynthesis` that records what would be said. */
function stubSpeech() {
  const spoken: { text: string; lang: string }[] = [];
  const log: string[] = [];
  const fake = {
    speak: (u: SpeechSynthesisUtterance) => { spoken.push({ text: u.text, lang: u.lang }); log.push(`speak ${u.text}`); },
    cancel: () => log.push('cancel'),
    getVoices: () => [],
  };
  const hadUtterance = typeof SpeechSynthesisUtterance !== 'undefined';
  // WebKitGTK ships no speech synthesis at all: give it the minimal shape the widget uses.
  if (!hadUtterance) (window as { SpeechSynthesisUtterance?: unknown }).SpeechSynthesisUtterance = class { lang = ''; text: string; constructor(text: string) { this.text = text; } };
  Object.defineProperty(window, 'speechSynthesis', { value: fake, configurable: true });
  return {
    spoken,
    log,
    restore() {
      delete (window as { speechSynthesis?: unknown }).speechSynthesis;
      if (!hadUtterance) delete (window as { SpeechSynthesisUtterance?: unknown }).SpeechSynthesisUtterance;
    },
  };
}

describe('<agent-chat tts>', () => {
  let speech: ReturnType<typeof stubSpeech>;
  let proxy: FakeProxy;
  beforeEach(() => {
    speech = stubSpeech();
    proxy = new FakeProxy();
  });
  afterEach(() => {
    fixtureCleanup();
    speech.restore();
    proxy.restore();
    localStorage.clear();
  });

  it('asks for stripped text and speaks each reply in order, in the conversation language', async () => {
    proxy.next({ json: { status: 'ok', result: {
      responses: [text('**Γεια σας!**'), { type: 'buttons', text: 'Επιλέξτε', options: ['Α', 'Β'], altText: 'Επιλέξτε: Α, Β' }, { type: 'text', options: ['x'] }],
      responsesStrippedMarkdownText: ['Γεια σας!'],
    } } });
    const { chat } = await mount(proxy, { open: true, attrs: { tts: '', language: 'EL' } });
    await waitForBubbles(chat, 3);
    expect(proxy.bodies[0].options).to.deep.equal({ includeStrippedMarkdownTextResponses: true });
    expect(speech.spoken).to.deep.equal([
      { text: 'Γεια σας!', lang: 'el' }, // from responsesStrippedMarkdownText
      { text: 'Επιλέξτε: Α, Β', lang: 'el' }, // no stripped text: its altText
    ]); // the third has neither, so nothing is said
  });

  it('does not speak without tts, and does not ask for stripped text', async () => {
    const { chat } = await mount(proxy, { open: true });
    await waitForBubbles(chat, 1);
    expect(proxy.bodies[0].options).to.equal(undefined);
    expect(speech.spoken).to.deep.equal([]);
  });

  it('the header toggle mutes and unmutes, and the choice is remembered', async () => {
    const first = await mount(proxy, { open: true, attrs: { tts: '' } });
    await waitForBubbles(first.chat, 1);
    const toggle = part(first.chat, 'tts-toggle')!;
    expect(toggle.getAttribute('aria-pressed')).to.equal('true');
    const icon = () => toggle.querySelector('svg')!.innerHTML;
    const speaking = icon();
    toggle.click();
    await first.chat.updateComplete;
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    expect(icon(), 'its icon shows it muted').to.not.equal(speaking);
    expect(speech.log.at(-1), 'muting stops speech').to.equal('cancel');
    first.chat.send('quiet please');
    await waitForBubbles(first.chat, 3);
    expect(speech.spoken.map((s) => s.text)).to.deep.equal(['Hello! How can I help?']);
    first.chat.remove();

    const second = await mount(proxy, { open: true, attrs: { tts: '' } });
    expect(part(second.chat, 'tts-toggle')!.getAttribute('aria-pressed'), 'still muted after reload').to.equal('false');
  });

  it('stops speaking when the visitor types, sends or closes the panel', async () => {
    const { chat } = await mount(proxy, { open: true, attrs: { tts: '' } });
    await waitForBubbles(chat, 1);
    speech.log.length = 0;
    await typeDraft(chat, 'h');
    expect(speech.log, 'typing').to.deep.equal(['cancel']);
    // Sending on its own (no typing first: chat.send), with a reply still being read.
    speech.log.length = 0;
    chat.send('hello');
    expect(speech.log, 'sending').to.deep.equal(['cancel']);
    await waitForRequests(proxy, 2);
    await waitUntil(() => speech.log.at(-1) === 'speak You said: hello', 'reply spoken');
    chat.hide();
    await chat.updateComplete;
    expect(speech.log.at(-1), 'closing').to.equal('cancel');
  });

  it('stops speaking when the chat leaves the page (a single-page site going to its next view)', async () => {
    const { chat } = await mount(proxy, { open: true, attrs: { tts: '' } });
    await waitForBubbles(chat, 1);
    expect(speech.log, 'the greeting being read').to.deep.equal(['speak Hello! How can I help?']);
    chat.remove();
    expect(speech.log.at(-1), 'removed').to.equal('cancel');
  });
});
