import { expect, fixtureCleanup, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AgentChatResponseEvent, AgentChatSendEvent } from '../src/events.js';
import { ok, text } from './support/fake-proxy.js';
import { pressShiftEnter } from './support/keys.js';
import { bubbles, mount, part, parts, shownText, statusOf, typeDraft, UUID, WAIT, waitForBubbles, waitForRequests, useFakeProxies } from './support/widget.js';

const GREETING = { payload: { type: 'node', data: 'greeting' } };

describe('<agent-chat>', () => {
  const proxy = useFakeProxies();

  describe('defaults', () => {
    it('renders a closed launcher and sends nothing before it is opened', async () => {
      const { chat, proxy: p } = await mount(proxy());
      expect(chat.mode, 'mode').to.equal('launcher');
      expect(chat.open, 'open').to.equal(false);
      expect(part(chat, 'launcher'), 'launcher part').to.exist;
      expect(part(chat, 'launcher')!.getAttribute('aria-expanded')).to.equal('false');
      expect(part(chat, 'panel')?.hidden ?? 'none', 'no panel shown').to.not.equal(false);
      await chat.updateComplete;
      expect(p.requests, 'requests before opening').to.have.length(0);
    });

    it('updateComplete resolves true, as a Lit element\'s does: with only the launcher drawn, once the rest has loaded and drawn the panel, and once a change is drawn', async () => {
      const { chat } = await mount(proxy());
      expect(await chat.updateComplete, 'the launcher alone').to.equal(true);
      chat.show();
      expect(await chat.updateComplete, 'the rest loaded').to.equal(true);
      expect(shownText(chat, 'title'), 'and the panel drawn').to.equal('Chat');
      chat.agentTitle = 'Ada from Support';
      expect(await chat.updateComplete).to.equal(true);
      expect(shownText(chat, 'title'), 'the change drawn').to.equal('Ada from Support');
    });

    it('reflects open, mode, theme and position as attributes when set as properties (a site\'s CSS selects on them), before and after the rest has loaded, which they do not load; nothing else', async () => {
      const { chat } = await mount(proxy());
      const attributes = () => Object.fromEntries(['open', 'mode', 'theme', 'position', 'agent-title', 'agenttitle'].map((name) => [name, chat.getAttribute(name)]));
      chat.theme = 'dark';
      chat.position = 'left';
      chat.agentTitle = 'Ada';
      expect(attributes(), 'the launcher alone').to.deep.equal({ open: null, mode: 'launcher', theme: 'dark', position: 'left', 'agent-title': null, agenttitle: null });
      await chat.updateComplete;
      expect(!!chat.shadowRoot!.querySelector('.messages'), 'nothing more loaded for them').to.equal(false);
      chat.open = true;
      await chat.updateComplete;
      chat.theme = undefined;
      chat.mode = 'inline';
      await chat.updateComplete;
      expect(attributes(), 'loaded').to.deep.equal({ open: '', mode: 'inline', theme: null, position: 'left', 'agent-title': null, agenttitle: null });
      chat.open = false;
      await chat.updateComplete;
      expect(chat.hasAttribute('open'), 'closed').to.equal(false);
    });

    it('draws its round icon buttons without the browser\'s button border (the view\'s sheet is applied)', async () => {
      const { chat } = await mount(proxy(), { open: true });
      for (const name of ['send-button', 'restart-button', 'close-button', 'launcher']) {
        const style = getComputedStyle(part(chat, name)!);
        expect(style.borderTopStyle, `${name} border`).to.equal('none');
        expect(style.borderTopLeftRadius, `${name} round`).to.equal('50%');
      }
    });

    it('is accessible closed and open (axe)', async () => {
      const { chat } = await mount(proxy());
      await expect(chat).to.be.accessible();
      chat.show();
      await waitForBubbles(chat, 1);
      await expect(chat).to.be.accessible();
    });

    it('adds no landmark to the page: a site with its own header keeps one banner, the panel open in either mode (axe)', async () => {
      // The panel is a dialog (launcher) or a region (inline); its header is the dialog's top line,
      // not the page's banner (axe reads a header inside a dialog as one: two banners on a site with its own).
      const banner = document.createElement('header');
      banner.textContent = 'The site';
      document.body.prepend(banner);
      try {
        for (const mode of ['launcher', 'inline'] as const) {
          const { chat } = await mount(proxy(), { mode, open: true });
          await waitForBubbles(chat, 1);
          await expect(chat).to.be.accessible();
          fixtureCleanup();
        }
      } finally {
        banner.remove();
      }
    });

    it('has no token attribute or property at all', async () => {
      const { chat } = await mount(proxy());
      expect('token' in chat || 'apiToken' in chat, 'token property').to.equal(false);
    });

    it('inside a form of the page, none of its buttons submits that form (they are in its shadow tree, which no form of the page reaches)', async () => {
      // The widget's buttons outside its composer say no `type`: a button of a shadow tree has no
      // form owner outside that tree. The page's own button in the same form does submit (the check works).
      const p = proxy();
      p.next(ok(text('Hello!'), { type: 'buttons', text: 'Which?', altText: 'Which?', buttons: [{ title: 'This one', payload: { type: 'node', data: 'x' } }] }));
      const form = document.createElement('form');
      const submitted: string[] = [];
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        submitted.push((event.submitter as HTMLElement | null)?.id || '?');
      });
      const own = Object.assign(document.createElement('button'), { id: 'page-button', textContent: 'The page\'s' });
      const chat = document.createElement('agent-chat');
      chat.setAttribute('proxy-url', p.url);
      chat.setAttribute('feedback', '');
      form.append(own, chat);
      document.body.append(form);
      try {
        part(chat, 'launcher')!.click();
        await waitUntil(() => part(chat, 'button'), 'the choice shown', WAIT);
        const clicked: string[] = [];
        for (const name of ['feedback-button--up', 'button', 'restart-button', 'undo-button', 'close-button', 'launcher']) {
          await chat.updateComplete;
          const button = part(chat, name);
          if (!button) continue;
          clicked.push(name);
          button.click();
        }
        expect(clicked, 'each kind of button was there').to.deep.equal(['feedback-button--up', 'button', 'restart-button', 'undo-button', 'close-button', 'launcher']);
        expect(submitted, 'the widget\'s buttons').to.deep.equal([]);
        // Its own form, the composer's: each button there says what it does (Send submits; the
        // microphone, where the browser has speech recognition, does not).
        const composer = [...chat.shadowRoot!.querySelectorAll('form button')].map((b) => `${b.getAttribute('part')}:${b.getAttribute('type')}`);
        expect(composer.filter((b) => b !== 'mic-button:button'), 'the composer\'s buttons').to.deep.equal(['send-button:submit']);
        own.click();
        expect(submitted, 'the page\'s own').to.deep.equal(['page-button']);
      } finally {
        form.remove();
      }
    });
  });

  describe('opening and greeting', () => {
    it('sends the greeting postback on first open and shows the reply', async () => {
      const { chat, proxy: p } = await mount(proxy());
      const shown = oneEvent(chat, 'agent-chat-show');
      part(chat, 'launcher')!.click();
      await shown;
      expect(chat.hasAttribute('open'), 'open reflects').to.equal(true);
      const [body] = await waitForRequests(p, 1);
      expect(body.message, 'greeting body').to.deep.equal(GREETING);
      expect(body.sender!.id, 'sender id').to.match(UUID);
      expect(await waitForBubbles(chat, 1)).to.deep.equal(['Hello! How can I help?']);
    });

    it('greets after the show event (its listener can tag the greeting) and before moving the focus in', async () => {
      const { chat, proxy: p } = await mount(proxy());
      const order: string[] = [];
      chat.addEventListener('agent-chat-show', () => {
        order.push('show');
        chat.updateTags({ add: ['opened-from-test'] });
      });
      let focusedAt = 0;
      // Into the input (the click puts it in the skeleton's text area first, while the rest loads).
      chat.shadowRoot!.addEventListener('focusin', ({ target }) => (target as Element).matches('[part~="input"]') && (focusedAt ||= performance.now()));
      part(chat, 'launcher')!.click();
      const [body] = await waitForRequests(p, 1);
      await waitUntil(() => focusedAt, 'the focus moved into the input', WAIT);
      expect(order).to.deep.equal(['show']);
      expect(body.tagOperations, 'the show listener\'s tag goes with the greeting').to.deep.equal({ add: ['opened-from-test'] });
      // The focus lays the panel out (~14 ms on a first open): the greeting need not wait for it.
      expect(p.requests[0].at, 'the greeting asked for before the focus moved into the input').to.be.at.most(focusedAt);
    });

    it('uses the greeting attribute as the node id', async () => {
      const { chat, proxy: p } = await mount(proxy(), { attrs: { greeting: 'welcome-back' } });
      chat.show();
      const [body] = await waitForRequests(p, 1);
      expect(body.message).to.deep.equal({ payload: { type: 'node', data: 'welcome-back' } });
    });

    it('show(), hide(), toggle() and Escape change `open` and fire show/hide events', async () => {
      const { chat } = await mount(proxy());
      const events: string[] = [];
      chat.addEventListener('agent-chat-show', () => events.push('show'));
      chat.addEventListener('agent-chat-hide', () => events.push('hide'));
      chat.show();
      await chat.updateComplete;
      chat.hide();
      await chat.updateComplete;
      chat.toggle();
      await chat.updateComplete;
      expect(chat.open, 'open after toggle').to.equal(true);
      part(chat, 'input')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
      await chat.updateComplete;
      expect(chat.open, 'open after Escape').to.equal(false);
      expect(events).to.deep.equal(['show', 'hide', 'show', 'hide']);
    });

    it('the rest of the widget loading while the panel stays closed fires neither show nor hide: only the visitor or the page opening and closing it do', async () => {
      const events: string[] = [];
      const record = ({ type }: Event) => events.push(type);
      document.addEventListener('agent-chat-show', record);
      document.addEventListener('agent-chat-hide', record);
      try {
        const { chat } = await mount(proxy(), { attrs: { load: 'eager' } });
        await waitUntil(() => part(chat, 'input'), 'the rest loaded, the panel closed', WAIT);
        await chat.updateComplete;
        expect(events, 'loaded, closed').to.deep.equal([]);
        chat.show();
        await chat.updateComplete;
        chat.hide();
        await chat.updateComplete;
        expect(events).to.deep.equal(['agent-chat-show', 'agent-chat-hide']);
      } finally {
        document.removeEventListener('agent-chat-show', record);
        document.removeEventListener('agent-chat-hide', record);
      }
    });

    it('greets only once however often it is opened', async () => {
      const { chat, proxy: p } = await mount(proxy());
      chat.show();
      await waitForBubbles(chat, 1);
      chat.hide();
      await chat.updateComplete;
      chat.show();
      await chat.updateComplete;
      chat.send('ping');
      await waitForBubbles(chat, 3);
      expect(p.bodies.map((b) => b.message)).to.deep.equal([GREETING, { text: 'ping' }]);
    });

    it('inline mode shows the panel in place, without launcher, greeted at once', async () => {
      const { chat, proxy: p } = await mount(proxy(), { mode: 'inline' });
      expect(part(chat, 'launcher'), 'launcher').to.equal(null);
      expect(part(chat, 'panel')!.hidden, 'panel hidden').to.equal(false);
      expect(part(chat, 'close-button'), 'close button').to.equal(null);
      await waitForBubbles(chat, 1);
      expect(p.bodies[0].message).to.deep.equal(GREETING);
    });
  });

  describe('identity and persistence', () => {
    it('keeps one UUID sender per proxy URL in localStorage, reused after a reload', async () => {
      const p = proxy();
      const first = await mount(p, { open: true });
      await waitForBubbles(first.chat, 1);
      first.chat.send('remember me');
      await waitForBubbles(first.chat, 3);
      first.chat.remove();

      // a "reload": a new element on the same proxy URL
      const second = await mount(p, { open: true });
      expect(bubbles(second.chat), 'restored transcript').to.deep.equal(['Hello! How can I help?', 'remember me', 'You said: remember me']);
      second.chat.send('again');
      await waitForRequests(p, 3);
      const ids = new Set(p.bodies.map((b) => b.sender!.id));
      expect(ids.size, 'one sender id').to.equal(1);
      expect(p.bodies.filter((b) => b.message.payload), 'greetings sent').to.have.length(1);
    });

    it('sends user-name and user-email as sender name and email', async () => {
      const { chat, proxy: p } = await mount(proxy(), { attrs: { 'user-name': 'Ada', 'user-email': 'ada@example.com' } });
      chat.show();
      const [body] = await waitForRequests(p, 1);
      expect(body.sender).to.include({ name: 'Ada', email: 'ada@example.com' });
    });

    it('keeps separate identities and transcripts for widgets with different proxy URLs', async () => {
      const a = await mount(proxy(), { open: true });
      const b = await mount(proxy(), { open: true });
      await waitForBubbles(a.chat, 1);
      await waitForBubbles(b.chat, 1);
      a.chat.send('only in A');
      await waitForBubbles(a.chat, 3);
      expect(a.proxy.bodies[0].sender!.id).not.to.equal(b.proxy.bodies[0].sender!.id);
      expect(bubbles(b.chat), 'B transcript').to.deep.equal(['Hello! How can I help?']);
    });

    it('starts afresh when the stored conversation is older than session-timeout', async () => {
      const p = proxy();
      const first = await mount(p, { open: true });
      await waitForBubbles(first.chat, 1);
      first.chat.remove();
      // age the stored conversation by two hours
      const key = Object.keys(localStorage).find((k) => k.includes(p.url) && k.endsWith(':conversation'))!;
      const stored = JSON.parse(localStorage.getItem(key)!);
      stored.data.updatedAt -= 2 * 60 * 60_000;
      localStorage.setItem(key, JSON.stringify(stored));

      const second = await mount(p, { open: true, attrs: { 'session-timeout': '60' } });
      await waitForRequests(p, 2);
      expect(p.bodies[1].message, 'second greeting').to.deep.equal(GREETING);
      expect(p.bodies[1].sender!.id, 'same person').to.equal(p.bodies[0].sender!.id);
      expect(await waitForBubbles(second.chat, 1)).to.deep.equal(['Hello! How can I help?']);
    });

    it('restart() and the new-conversation button clear the log and greet again', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      chat.send('hi');
      await waitForBubbles(chat, 3);
      chat.restart();
      await waitForRequests(p, 3);
      await waitUntil(() => bubbles(chat).length === 1, 'log cleared and greeted');
      part(chat, 'restart-button')!.click();
      await waitForRequests(p, 4);
      expect(p.bodies.map((b) => b.message)).to.deep.equal([GREETING, { text: 'hi' }, GREETING, GREETING]);
    });

    it('the new-conversation button can be taken back: Undo restores the conversation and drops the new greeting, even in flight', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      chat.send('keep me');
      await waitForBubbles(chat, 3);
      const before = bubbles(chat);
      const gate = p.hold(); // the new conversation's greeting stays in flight
      part(chat, 'restart-button')!.click();
      await waitForRequests(p, 3);
      await chat.updateComplete;
      expect(bubbles(chat), 'cleared').to.deep.equal([]);
      expect(shownText(chat, 'notice')).to.equal('New conversation started.Undo');
      expect(part(chat, 'notice')!.getAttribute('role'), 'said to assistive technology').to.equal('status');
      part(chat, 'undo-button')!.click();
      await chat.updateComplete;
      expect(bubbles(chat), 'back').to.deep.equal(before);
      expect(shownText(chat, 'undo-button'), 'said once').to.equal(null);
      expect(p.requests[2].aborted, 'the new greeting is called off').to.equal(true);
      gate.release();
      chat.send('still the same conversation');
      await waitForBubbles(chat, 5);
      expect(bubbles(chat).slice(0, 3)).to.deep.equal(before);
      expect(p.bodies.map((b) => b.message.text ?? b.message.payload?.type)).to.deep.equal(['node', 'keep me', 'node', 'still the same conversation']);
    });

    /** A new conversation begun while the visitor's message "book a table" is with the agent, which answers when the test says. */
    async function newConversationWhileAnswering() {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const gate = p.hold();
      chat.send('book a table');
      await waitForRequests(p, 2);
      part(chat, 'restart-button')!.click();
      await chat.updateComplete;
      expect(bubbles(chat), 'cleared').to.deep.equal([]);
      return { chat, p, gate };
    }

    it('a message in flight when the visitor begins a new conversation is not sent again by its Undo: the reply that came meanwhile comes back with it', async () => {
      const { chat, p, gate } = await newConversationWhileAnswering();
      gate.release(ok(text('Booked for 8 pm')));
      await waitForRequests(p, 3); // the new conversation's greeting, after the answer
      await waitForBubbles(chat, 1, 'the new greeting');
      expect(bubbles(chat), 'the answer stays out of the new conversation').to.deep.equal(['Hello! How can I help?']);
      part(chat, 'undo-button')!.click();
      await chat.updateComplete;
      expect(bubbles(chat), 'back, with the answer').to.deep.equal(['Hello! How can I help?', 'book a table', 'Booked for 8 pm']);
      expect(statusOf(chat, 'book a table'), 'delivered').to.equal('sent');
      chat.send('thanks');
      await waitForBubbles(chat, 5);
      expect(p.bodies.map((b) => b.message.text ?? '(greeting)'), 'the agent heard it once').to.deep.equal(['(greeting)', 'book a table', '(greeting)', 'thanks']);
    });

    it('a message in flight when the visitor begins a new conversation and takes it back at once: sent once, its answer shows', async () => {
      const { chat, p, gate } = await newConversationWhileAnswering();
      part(chat, 'undo-button')!.click();
      await chat.updateComplete;
      expect(p.requests[1].aborted, 'not called off').to.not.equal(true);
      gate.release(ok(text('Booked for 8 pm')));
      await waitForBubbles(chat, 3, 'the answer');
      expect(bubbles(chat)).to.deep.equal(['Hello! How can I help?', 'book a table', 'Booked for 8 pm']);
      chat.send('thanks');
      await waitForBubbles(chat, 5);
      expect(p.bodies.map((b) => b.message.text ?? '(greeting)'), 'the agent heard it once, and no new greeting went once taken back').to.deep.equal(['(greeting)', 'book a table', 'thanks']);
    });

    it('sending in the new conversation makes it final: the Undo goes away', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      part(chat, 'restart-button')!.click();
      await waitForRequests(p, 2);
      await chat.updateComplete;
      expect(shownText(chat, 'undo-button')).to.equal('Undo');
      chat.send('new start');
      await chat.updateComplete;
      expect(shownText(chat, 'undo-button')).to.equal(null);
    });

    it('works in memory when localStorage throws', async () => {
      const { getItem, setItem } = Storage.prototype;
      Storage.prototype.getItem = () => { throw new DOMException('blocked', 'SecurityError'); };
      Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
      try {
        const { chat, proxy: p } = await mount(proxy(), { open: true });
        await waitForBubbles(chat, 1);
        chat.send('still here');
        await waitForBubbles(chat, 3);
        expect(p.bodies[1].sender!.id, 'same sender in memory').to.equal(p.bodies[0].sender!.id);
        expect(p.bodies[1].sender!.id).to.match(UUID);
      } finally {
        Object.assign(Storage.prototype, { getItem, setItem });
      }
    });
  });

  describe('talking', () => {
    it('Enter sends, Shift+Enter adds a line, blank input is not sent', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const input = part(chat, 'input') as HTMLTextAreaElement;
      input.focus();
      await sendKeys({ press: 'Enter' });
      await sendKeys({ type: '   ' });
      await sendKeys({ press: 'Enter' });
      expect(p.requests, 'blank not sent').to.have.length(1);
      await typeDraft(chat, '');
      await sendKeys({ type: 'line one' });
      await pressShiftEnter(input);
      await sendKeys({ type: 'line two' });
      expect(input.value, 'newline kept').to.equal('line one\nline two');
      await sendKeys({ press: 'Enter' });
      const bodies = await waitForRequests(p, 2);
      expect(bodies[1].message).to.deep.equal({ text: 'line one\nline two' });
      await chat.updateComplete;
      expect(input.value, 'input cleared').to.equal('');
    });

    it('Enter that confirms an IME composition (Japanese, Chinese, Korean input) sends nothing; the next Enter sends', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const input = part(chat, 'input') as HTMLTextAreaElement;
      await typeDraft(chat, '東京');
      const enter = (init: KeyboardEventInit) => input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true, ...init }));
      // During the composition, as every engine reports it; and WebKit's Enter right after it, which
      // comes with isComposing false and keyCode 229 (the key the IME took).
      expect(enter({ isComposing: true }), 'the IME keeps its Enter').to.equal(true);
      expect(enter({ keyCode: 229 }), 'the IME keeps its Enter (keyCode 229)').to.equal(true);
      await chat.updateComplete;
      expect(p.bodies.length, 'nothing sent').to.equal(1);
      expect(input.value, 'the draft stays').to.equal('東京');
      expect(enter({}), 'a plain Enter is the widget\'s').to.equal(false);
      const bodies = await waitForRequests(p, 2);
      expect(bodies[1].message).to.deep.equal({ text: '東京' });
    });

    it('Escape that cancels an IME composition (Japanese, Chinese, Korean input) leaves the panel open; the next Escape closes it', async () => {
      const { chat } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const input = part(chat, 'input') as HTMLTextAreaElement;
      await typeDraft(chat, 'とうきょう');
      const escape = (init: KeyboardEventInit) => input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true, cancelable: true, ...init }));
      // During the composition, as every engine reports it; and with keyCode 229 (the key the IME took), as WebKit reports keys the IME had.
      escape({ isComposing: true });
      escape({ keyCode: 229 });
      await chat.updateComplete;
      expect(chat.open, 'the IME\'s Escape: still open').to.equal(true);
      expect(input.value, 'the draft stays').to.equal('とうきょう');
      escape({});
      await chat.updateComplete;
      expect(chat.open, 'a plain Escape closes').to.equal(false);
    });

    it('the send button sends and is disabled while the input is blank', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const button = part(chat, 'send-button') as HTMLButtonElement;
      expect(button.disabled, 'disabled when blank').to.equal(true);
      await typeDraft(chat, 'by click');
      expect(button.disabled, 'enabled with text').to.equal(false);
      button.click();
      await waitForRequests(p, 2);
      expect(p.bodies[1].message).to.deep.equal({ text: 'by click' });
    });

    it('grows with a draft of several lines, up to 8em, then scrolls; one line again once sent (where the browser has no field-sizing too)', async () => {
      const { chat } = await mount(proxy(), { open: true });
      const input = part(chat, 'input') as HTMLTextAreaElement;
      const oneLine = input.clientHeight;
      await typeDraft(chat, 'one\ntwo\nthree\nfour');
      expect(input.clientHeight, 'taller than one line').to.be.above(oneLine);
      expect(input.scrollHeight - input.clientHeight, 'its four lines all shown').to.be.at.most(1);
      await typeDraft(chat, Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'));
      expect(input.scrollHeight, 'twenty lines scroll inside it').to.be.above(input.clientHeight);
      expect(input.clientHeight, 'no taller than 8em').to.be.at.most(parseFloat(getComputedStyle(input).fontSize) * 8 + 1);
      part(chat, 'send-button')!.click();
      await chat.updateComplete;
      expect(input.value, 'sent').to.equal('');
      expect(input.clientHeight, 'one line again once sent').to.equal(oneLine);
    });

    it('shows a counter near the limit; a text pasted past it is kept whole, marked invalid and not sent until shortened (a maxlength cut it without a word)', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const input = part(chat, 'input') as HTMLTextAreaElement;
      expect(part(chat, 'counter'), 'no counter for short text').to.equal(null);
      // Nothing to send in spaces and line breaks; the phone keyboard's Enter key says "Send".
      await typeDraft(chat, ' \n ');
      expect((part(chat, 'send-button') as HTMLButtonElement).disabled, 'Send disabled for a blank draft').to.equal(true);
      expect(input.getAttribute('enterkeyhint'), 'the on-screen Enter key').to.equal('send');
      // From 80 % of the limit on.
      await typeDraft(chat, 'x'.repeat(1599));
      expect(!!part(chat, 'counter'), 'none at 1,599').to.equal(false);
      await typeDraft(chat, 'x'.repeat(1600));
      expect(shownText(chat, 'counter'), 'at 1,600').to.equal('1,600 / 2,000');
      await typeDraft(chat, 'x'.repeat(1900));
      expect(part(chat, 'counter')!.textContent).to.equal('1,900 / 2,000');
      // Read out with each key only past the limit (it was from 1,600 on: 400 announcements); within
      // it, the input's description.
      expect(part(chat, 'counter')!.getAttribute('aria-live'), 'within the limit: not live').to.equal(null);
      expect(input.getAttribute('aria-describedby'), 'the input\'s description').to.equal('counter');
      expect(input.getAttribute('aria-invalid'), 'within the limit: valid').to.equal(null);
      // A paste, as the browser makes it (execCommand edits as the visitor does: a maxlength applies to it).
      input.focus();
      input.select();
      const pasted = 'The order I placed on Monday. '.repeat(70).trim();
      document.execCommand('insertText', false, pasted);
      await chat.updateComplete;
      // (Lengths and a boolean: chai would print two 2,000-character texts.)
      expect(input.value.length, 'the pasted text, all of it').to.equal(pasted.length);
      expect(part(chat, 'counter')!.textContent, 'the counter says how far over').to.equal('2,099 / 2,000');
      expect(input.getAttribute('aria-invalid'), 'over the limit: invalid').to.equal('true');
      expect(part(chat, 'counter')!.getAttribute('aria-live'), 'over the limit: live').to.equal('polite');
      expect((part(chat, 'send-button') as HTMLButtonElement).disabled, 'Send disabled').to.equal(true);
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
      (input.form as HTMLFormElement).requestSubmit();
      await chat.updateComplete;
      expect(input.value === pasted, 'Enter and a submit send nothing: the text stays').to.equal(true);
      expect(p.bodies.length, 'nothing sent').to.equal(1);
      // Shortened to the limit: sent whole.
      input.setSelectionRange(2000, pasted.length);
      document.execCommand('delete');
      await chat.updateComplete;
      expect(input.getAttribute('aria-invalid'), 'shortened: valid').to.equal(null);
      (part(chat, 'send-button') as HTMLButtonElement).click();
      await waitForRequests(p, 2);
      expect(p.bodies[1].message.text === pasted.slice(0, 2000).trim(), 'sent as shortened, nothing more cut').to.equal(true);
    });

    it("shows the user's message at once and a typing indicator until the reply", async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const gate = p.hold();
      chat.send('slow one');
      await chat.updateComplete;
      expect(bubbles(chat).at(-1), 'echo').to.equal('slow one');
      await waitUntil(() => part(chat, 'typing'), 'typing indicator shown');
      gate.release(ok(text('first'), text('second', 'third')));
      await waitForBubbles(chat, 5);
      expect(bubbles(chat).slice(2)).to.deep.equal(['first', 'second', 'third']);
      expect(part(chat, 'typing'), 'typing indicator gone').to.equal(null);
    });

    it('sends one request at a time and keeps the order the user spoke in', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const gate = p.hold();
      chat.send('one');
      chat.send('two');
      chat.send('three');
      await waitForRequests(p, 2);
      expect(p.requests, 'only one in flight').to.have.length(2);
      gate.release();
      await waitForBubbles(chat, 7);
      expect(p.bodies.slice(1).map((b) => b.message.text), 'request order').to.deep.equal(['one', 'two', 'three']);
      expect(bubbles(chat).slice(1)).to.deep.equal(['one', 'two', 'three', 'You said: one', 'You said: two', 'You said: three']);
    });

    it('send(), postback(), updateTags() and language shape the request bodies', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true, attrs: { language: 'EL' } });
      await waitForBubbles(chat, 1);
      chat.updateTags({ add: ['vip', 'beta'], remove: ['trial'] });
      chat.send('  hello  ');
      chat.postback({ type: 'intent', data: 'pricing' });
      await waitForRequests(p, 3);
      const [greeting, hello, pricing] = p.bodies;
      expect(greeting.language).to.equal('EL');
      expect(hello).to.deep.include({ message: { text: 'hello' }, language: 'EL', tagOperations: { add: ['vip', 'beta'], remove: ['trial'] } });
      expect(pricing.message).to.deep.equal({ payload: { type: 'intent', data: 'pricing' } });
      expect(pricing.tagOperations, 'tags sent once').to.equal(undefined);
      expect(Object.keys(hello).sort()).to.deep.equal(['language', 'message', 'requestId', 'sender', 'tagOperations', 'timestamp']);
      expect(p.bodies.map((b) => UUID.test(b.requestId!)), 'each with a requestId').to.deep.equal([true, true, true]);
      expect(new Set(p.bodies.map((b) => b.requestId)).size, 'its own').to.equal(3);
      expect(p.requests[1].headers.get('content-type')).to.equal('application/json');
      expect(p.requests[1].headers.has('authorization'), 'no Authorization header').to.equal(false);
    });

    it('include-metadata asks for metadata and hands it over in agent-chat-response', async () => {
      const { chat, proxy: p } = await mount(proxy(), { attrs: { 'include-metadata': '' } });
      p.next({ json: { status: 'ok', result: { responses: [text('hi')], responsesIds: ['TX_1'], nodesIds: ['greeting'] } } });
      const response = oneEvent(chat, 'agent-chat-response') as Promise<AgentChatResponseEvent>;
      chat.show();
      const { detail } = await response;
      expect(p.bodies[0].options).to.deep.equal({ includeMetadata: true });
      expect(detail.responsesIds).to.deep.equal(['TX_1']);
      expect(detail.nodesIds).to.deep.equal(['greeting']);
      expect(detail.responses[0].type).to.equal('text');
      expect(detail.request.message).to.deep.equal(GREETING);
    });

    it('fires a cancelable agent-chat-send with the request body', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const sends: AgentChatSendEvent[] = [];
      chat.addEventListener('agent-chat-send', (e) => {
        sends.push(e);
        if (e.detail.message.text === 'secret') e.preventDefault();
      });
      chat.send('secret');
      chat.send('public');
      await waitForBubbles(chat, 3);
      expect(sends.map((e) => e.detail.message.text)).to.deep.equal(['secret', 'public']);
      expect(sends[0].bubbles && sends[0].composed, 'bubbles and composed').to.equal(true);
      expect(p.bodies.map((b) => b.message.text)).to.deep.equal([undefined, 'public']);
      expect(bubbles(chat), 'cancelled message removed').to.deep.equal(['Hello! How can I help?', 'public', 'You said: public']);
    });
  });

  describe('failures', () => {
    it('401/403 show a calm "unavailable" message and tell the developer once', async () => {
      const { chat, proxy: p } = await mount(proxy(), { open: true });
      await waitForBubbles(chat, 1);
      const logged: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => logged.push(args);
      try {
        p.handle(() => ({ status: 401, json: { status: 'error', error: 'Invalid token' } }));
        chat.send('a');
        await waitUntil(() => part(chat, 'message-status--failed'), 'error shown');
        chat.send('b');
        await waitForRequests(p, 3);
        await waitUntil(() => parts(chat, 'message-status--failed').length === 2, 'both failed');
      } finally {
        console.error = original;
      }
      expect(part(chat, 'message-status--failed')!.textContent).to.contain('unavailable');
      expect(part(chat, 'retry-button'), 'no retry for a setup problem').to.equal(null);
      expect(logged, 'logged once').to.have.length(1);
      expect(String(logged[0][0])).to.contain('401').and.to.contain('AGENT_API_TOKEN');
    });
  });
});
