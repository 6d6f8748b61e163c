/**
 * The shell: what one script tag loads. It takes the whole API at once and loads the rest of the
 * widget (the view) only when it is wanted. Each test loads the built files into a fresh iframe, so
 * the network requests the page makes are the page's own and the module is evaluated there first.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AgentChat } from '../src/agent-chat.js';
import { retriesFailedModules } from './support/module-retry.js';
import { standardsMode, WAIT } from './support/widget.js';
import { launcherSnippet, launcherStyleHash } from '../src/shell/launcher-snippet.js';

type Frame = Window & typeof globalThis & { requests: { url: string; body: { message: { text?: string; payload?: unknown }; tagOperations?: unknown } }[] };

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  frames.splice(0).forEach((f) => f.remove());
  localStorage.clear();
});

/** A fresh frame whose `fetch` records each request when it is called and answers with a text reply. */
function freshFrame(): Frame {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  frames.push(frame);
  const win = frame.contentWindow as Frame;
  standardsMode(win);
  win.requests = [];
  win.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    win.requests.push({ url: String(input), body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify({ status: 'ok', result: { responses: [{ type: 'text', options: ['Hi!'], altText: 'Hi!' }] } }),
      { headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return win;
}

/** Adds a script tag for a built file and waits for it to run. */
function loadScript(win: Frame, path: string, { module = true, src = new URL(path, location.href).href } = {}) {
  const script = win.document.createElement('script');
  if (module) script.type = 'module';
  script.src = src;
  const loaded = new Promise((resolve, reject) => {
    script.onload = resolve;
    script.onerror = () => reject(new Error(`run \`npm run build\` first: ${path} did not load`));
  });
  win.document.head.append(script);
  return loaded;
}

/** The classic script from a blob: URL, where nothing lies next to it: the rest of the widget cannot load. */
async function loadWithoutTheRest(win: Frame) {
  const source = await (await fetch('/dist/agent-chat.iife.js')).text();
  await loadScript(win, 'agent-chat.iife.js', { module: false, src: URL.createObjectURL(new Blob([source], { type: 'text/javascript' })) });
}

/**
 * What a tab closed mid-send leaves in the frame's storage for the proxy at `path`: the visitor's
 * message "left behind", still sending (what the shell looks for).
 */
function leaveUnsent(win: Frame, path: string) {
  const at = Date.now();
  win.localStorage.setItem(`agent-chat:${new URL(path, win.document.baseURI).href}:conversation`, JSON.stringify({ v: 1, data: {
    startedAt: at, updatedAt: at, greeted: true, messages: [
      { kind: 'user', id: crypto.randomUUID(), at, text: 'left behind', status: 'sending', request: { text: 'left behind' } },
    ],
  } }));
}

/** Whether the frame has fetched the view (the part of the widget the shell loads when wanted). */
const viewLoaded = (win: Frame) => win.performance.getEntriesByType('resource').some((e) => e.name.endsWith('/agent-chat-view.js'));
const shadowText = (chat: Element, part: string) => chat.shadowRoot!.querySelector(`[part~="${part}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;

describe('the shell', () => {
  it('draws the launcher and loads nothing more until the visitor points at it; a click then opens and greets', async () => {
    const win = freshFrame();
    await loadScript(win, '/dist/agent-chat.js');
    win.document.body.innerHTML = '<agent-chat proxy-url="/shell"></agent-chat>';
    const chat = win.document.querySelector('agent-chat') as AgentChat;
    const launcher = chat.shadowRoot!.querySelector<HTMLButtonElement>('[part~="launcher"]')!;
    expect(launcher.getAttribute('aria-label')).to.equal('Open chat');
    // A page that goes on living: a frame, a task, the page's load event: still only the shell.
    await new Promise((resolve) => win.requestAnimationFrame(resolve));
    await chat.updateComplete;
    expect(viewLoaded(win), 'view loaded before intent').to.equal(false);
    expect(win.requests, 'requests before intent').to.have.length(0);

    launcher.dispatchEvent(new PointerEvent('pointerenter'));
    await waitUntil(() => viewLoaded(win), 'the view loads on intent', WAIT);
    await chat.updateComplete;
    expect(chat.open, 'intent alone does not open').to.equal(false);
    expect(win.requests, 'nor greet').to.have.length(0);

    launcher.click();
    await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'greeted after the click', WAIT);
    expect(win.requests.map((r) => r.body.message.payload)).to.deep.equal([{ type: 'node', data: 'greeting' }]);
  });

  it('keeps the calls made before the rest has loaded and replays them in order', async () => {
    const win = freshFrame();
    await loadScript(win, '/dist/agent-chat.js');
    const chat = win.document.createElement('agent-chat') as AgentChat;
    chat.proxyUrl = '/replay';
    win.document.body.append(chat);
    // All at once, before anything could load.
    chat.updateTags({ add: ['vip'] });
    chat.send('first');
    chat.postback({ type: 'node', data: 'n1' }, 'second');
    chat.send('third');
    await waitUntil(() => win.requests.length >= 3, 'three requests', WAIT);
    const bodies = win.requests.map((r) => r.body);
    expect(bodies.map((b) => b.message.text ?? b.message.payload)).to.deep.equal(['first', { type: 'node', data: 'n1' }, 'third']);
    expect(bodies[0].tagOperations, 'tags go with the first request').to.deep.equal({ add: ['vip'] });
    expect(bodies[1].tagOperations, 'and only with it').to.equal(undefined);
    chat.show();
    await waitUntil(() => chat.shadowRoot!.querySelectorAll('[part~="bubble"]').length >= 6, 'each message and its reply shown', WAIT);
    await chat.updateComplete;
    const shown = [...chat.shadowRoot!.querySelectorAll('[part~="bubble"]')].map((b) => b.textContent!.trim());
    expect(shown, 'in the log: the messages as they were made, then the replies in order').to.deep.equal(['first', 'second', 'third', 'Hi!', 'Hi!', 'Hi!']);
    expect(win.requests, 'a conversation already begun is not greeted when shown').to.have.length(3);
  });

  it('observes exactly the attributes custom-elements.json documents (each its property in kebab case)', async () => {
    const win = freshFrame();
    await loadScript(win, '/dist/agent-chat.js');
    const manifest = await (await fetch('/dist/custom-elements.json')).json();
    const element = manifest.modules.flatMap((m: { declarations?: unknown[] }) => m.declarations ?? []).find((d: { tagName?: string }) => d.tagName === 'agent-chat');
    const documented = element.attributes.map((a: { name: string; fieldName: string }) => `${a.name}=${a.fieldName}`).sort();
    expect(documented).to.include.members(['proxy-url=proxyUrl', 'agent-title=agentTitle', 'teaser-delay=teaserDelay', 'open=open']);
    const observed = [...(win.customElements.get('agent-chat') as unknown as { observedAttributes: string[] }).observedAttributes].sort();
    expect(observed).to.deep.equal(documented.map((pair: string) => pair.split('=')[0]).sort());
    // Each sets its property.
    win.document.body.innerHTML = `<agent-chat ${observed.map((name) => `${name}="1"`).join(' ')}></agent-chat>`;
    const chat = win.document.querySelector('agent-chat') as unknown as Record<string, unknown>;
    for (const pair of documented) expect(chat[pair.split('=')[1]], pair).to.not.equal(undefined);
  });

  it('keeps properties set on the element before its script ran (a framework may set them first)', async () => {
    const win = freshFrame();
    const early = win.document.createElement('agent-chat') as AgentChat;
    early.proxyUrl = '/early';
    early.greeting = 'welcome';
    early.open = true;
    win.document.body.append(early);
    await loadScript(win, '/dist/agent-chat.js');
    await waitUntil(() => win.requests.length >= 1, 'greeted', WAIT);
    expect(win.requests[0].url).to.match(/\/early$/);
    expect(win.requests[0].body.message.payload).to.deep.equal({ type: 'node', data: 'welcome' });
    expect(early.hasAttribute('open'), 'open reflects').to.equal(true);
  });

  it('takes every attribute of an element that was there before its script, whatever their order', async () => {
    const win = freshFrame();
    // mode first: going inline loads the view and reflects mode while the other attributes of the
    // upgrade are still queued (they must not be mistaken for the reflection's echo).
    win.document.body.innerHTML = '<agent-chat mode="inline" proxy-url="/order" greeting="hello" language="de"></agent-chat>';
    await loadScript(win, '/dist/agent-chat.js');
    await waitUntil(() => win.requests.length >= 1, 'greeted', WAIT);
    expect(win.requests[0].url).to.match(/\/order$/);
    expect(win.requests[0].body.message.payload).to.deep.equal({ type: 'node', data: 'hello' });
    expect((win.requests[0].body as { language?: string }).language).to.equal('de');
  });

  it('labels the launcher in the page\'s language, or with the site\'s own words, before anything else has loaded', async () => {
    const win = freshFrame();
    await loadScript(win, '/dist/agent-chat.js');
    win.document.documentElement.lang = 'de';
    win.document.body.innerHTML = '<agent-chat proxy-url="/de"></agent-chat><agent-chat proxy-url="/own"></agent-chat>';
    const [german, own] = win.document.querySelectorAll('agent-chat') as unknown as AgentChat[];
    own.strings = { openChat: 'Ask us' };
    const label = (chat: AgentChat) => chat.shadowRoot!.querySelector('[part~="launcher"]')!.getAttribute('aria-label');
    expect(label(german)).to.equal('Chat öffnen');
    expect(label(own)).to.equal('Ask us');
    expect(viewLoaded(win), 'from the shell alone').to.equal(false);
  });

  it('load="eager" loads at once; load="idle" once the page is idle; the default waits for intent', async () => {
    const eager = freshFrame();
    await loadScript(eager, '/dist/agent-chat.js');
    eager.document.body.innerHTML = '<agent-chat proxy-url="/eager" load="eager"></agent-chat>';
    await waitUntil(() => viewLoaded(eager), 'eager loads', WAIT);

    const idle = freshFrame();
    await loadScript(idle, '/dist/agent-chat.js');
    idle.document.body.innerHTML = '<agent-chat proxy-url="/idle" load="idle"></agent-chat>';
    await waitUntil(() => viewLoaded(idle), 'idle loads without intent', WAIT);
    expect(idle.requests, 'loading is not opening').to.have.length(0);
  });

  it('sends what a closed tab left unsent once the page is idle, although the launcher stays closed', async () => {
    const win = freshFrame();
    await loadScript(win, '/dist/agent-chat.js');
    leaveUnsent(win, '/left');
    // A page's first read of localStorage waits while the browser loads it (~4 ms in the bench's
    // profile): not while the launcher is drawn. (The tab's sessionStorage is read then on a page the
    // visitor came to from the site: whether the panel was open on the page before; see the next test.)
    const reads: string[] = [];
    const { getItem } = win.Storage.prototype;
    win.Storage.prototype.getItem = function (this: Storage, key: string) {
      reads.push(`${this === win.localStorage ? 'local' : 'session'}: ${key}`);
      return getItem.call(this, key);
    };
    win.document.body.innerHTML = '<agent-chat proxy-url="/left"></agent-chat>';
    expect(win.document.querySelector('agent-chat')!.shadowRoot!.querySelector('[part~="launcher"]'), 'the launcher is drawn').to.exist;
    expect(reads.filter((read) => read.startsWith('local')), 'localStorage read while the launcher was drawn').to.deep.equal([]);
    await waitUntil(() => win.requests.length >= 1, 'sent', WAIT);
    expect(win.requests[0].body.message.text).to.equal('left behind');
  });

  it('sends what a closed tab left unsent once the page is idle also where the page sets the proxy URL after the element is in it (a framework whose configuration loads later)', async () => {
    const win = freshFrame();
    await loadScript(win, '/dist/agent-chat.js');
    leaveUnsent(win, '/left-late');
    win.document.body.innerHTML = '<agent-chat></agent-chat>';
    // Once the page is idle (the shell has looked, with no URL to look under), the URL comes.
    await new Promise((resolve) => (win.requestIdleCallback ?? win.setTimeout)(() => win.setTimeout(resolve)));
    expect(win.requests, 'nothing sent without a URL').to.deep.equal([]);
    win.document.querySelector('agent-chat')!.setAttribute('proxy-url', '/left-late');
    await waitUntil(() => win.requests.length >= 1, 'sent', WAIT);
    expect(win.requests.map((r) => r.body.message.text)).to.deep.equal(['left behind']);
  });

  it('reads no storage as the launcher is drawn on a page the visitor came to from another site; from a page of the site, only whether the panel was open there', async () => {
    const reads: string[] = [];
    for (const referrer of ['https://elsewhere.example/', '', `${location.origin}/a-page-of-the-site`]) {
      const win = freshFrame();
      await loadScript(win, '/dist/agent-chat.js');
      Object.defineProperty(win.document, 'referrer', { get: () => referrer });
      const { getItem } = win.Storage.prototype;
      let drawing = true; // (what is read at idle after: the test before)
      win.Storage.prototype.getItem = function (this: Storage, key: string) {
        if (drawing) reads.push(`${referrer || '(none)'}: ${this === win.localStorage ? 'local' : 'session'} ${key.replace(location.origin, '')}`);
        return getItem.call(this, key);
      };
      win.document.body.innerHTML = '<agent-chat proxy-url="/came-from"></agent-chat>';
      drawing = false;
      expect(win.document.querySelector('agent-chat')!.shadowRoot!.querySelector('[part~="launcher"]'), 'the launcher is drawn').to.exist;
    }
    // Once: an upgrade sets the attributes of an element already in the page before connecting it,
    // and each used to draw the shell and read again.
    expect(reads).to.deep.equal([`${location.origin}/a-page-of-the-site: session agent-chat:/came-from:open`]);
  });

  for (const [what, data, greeting] of [['a postback without a title', 'checkout-started', false], ['a greeting', 'greeting', true]] as const) {
    it(`sends ${what} that a page left unsent (held, not in the log) once the page is idle, the launcher closed`, async () => {
      const win = freshFrame();
      await loadScript(win, '/dist/agent-chat.js');
      // A site's `postback()` (or the greeting of a panel opened) on one page, the visitor gone to
      // the next before it was answered.
      const proxyUrl = new URL('/held', win.document.baseURI).href;
      const at = Date.now();
      win.localStorage.setItem(`agent-chat:${proxyUrl}:conversation`, JSON.stringify({ v: 1, data: {
        startedAt: at, updatedAt: at, greeted: !greeting, messages: [],
        held: [{ id: crypto.randomUUID(), at, message: { payload: { type: 'node', data } }, ...(greeting && { greeting }), by: 'agent-chat:tab:gone' }],
      } }));
      win.document.body.innerHTML = '<agent-chat proxy-url="/held"></agent-chat>';
      await waitUntil(() => win.requests.length >= 1, 'sent', WAIT);
      expect(win.requests.map((r) => r.body.message.payload), 'sent once').to.deep.equal([{ type: 'node', data }]);
      const chat = win.document.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => shadowText(chat, 'badge') === '1', 'its reply told of beside the closed launcher', WAIT);
      expect(chat.open, 'the launcher stays closed').to.equal(false);
    });
  }

  for (const [seen, what] of [[false, 'tells of replies the visitor has seen in no tab with the badge'], [true, 'loads nothing for replies the visitor has seen']] as const) {
    it(`${what}, once the page is idle, the launcher closed`, async () => {
      const win = freshFrame();
      await loadScript(win, '/dist/agent-chat.js');
      // What a page left in storage: a reply that came while the panel was closed there, and when
      // the newest message the visitor has seen (in any tab) came.
      const proxyUrl = new URL('/unread', win.document.baseURI).href;
      const at = Date.now();
      win.localStorage.setItem(`agent-chat:${proxyUrl}:conversation`, JSON.stringify({ v: 1, data: {
        startedAt: at, updatedAt: at + 2, greeted: true, messages: [
          { kind: 'agent', id: crypto.randomUUID(), at, item: { type: 'text', options: ['Hi!'], altText: 'Hi!' } },
          { kind: 'user', id: crypto.randomUUID(), at: at + 1, text: 'a question', status: 'sent', request: { text: 'a question' } },
          { kind: 'agent', id: crypto.randomUUID(), at: at + 2, item: { type: 'text', options: ['An answer'], altText: 'An answer' } },
        ],
      } }));
      win.localStorage.setItem(`agent-chat:${proxyUrl}:read`, JSON.stringify({ v: 1, data: seen ? at + 2 : at }));
      win.document.body.innerHTML = '<agent-chat proxy-url="/unread"></agent-chat>';
      const chat = win.document.querySelector('agent-chat') as AgentChat;
      if (!seen) {
        await waitUntil(() => shadowText(chat, 'badge') === '1', 'the badge', WAIT);
      } else {
        await new Promise((resolve) => (win.requestIdleCallback ?? win.setTimeout)(() => win.setTimeout(resolve)));
        await chat.updateComplete;
        expect(viewLoaded(win), 'the view loaded').to.equal(false);
      }
      expect(chat.open, 'the launcher stays closed').to.equal(false);
      expect(win.requests, 'nothing sent').to.have.length(0);
    });
  }

  it('as a classic script, loads the rest from next to itself, not from the page', async () => {
    const win = freshFrame();
    // The frame's document is about:blank with the test page's URL as its base: a path resolved
    // against the page would miss dist/.
    await loadScript(win, '/dist/agent-chat.iife.js', { module: false });
    expect(typeof (win as unknown as { AgentChat: { AgentChat: unknown } }).AgentChat.AgentChat, 'the global').to.equal('function');
    win.document.body.innerHTML = '<agent-chat proxy-url="/classic" open></agent-chat>';
    const chat = win.document.querySelector('agent-chat')!;
    await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'greeted through the view next to the script', WAIT);
    expect(viewLoaded(win)).to.equal(true);
  });

  it('says so in the panel when the rest cannot be loaded, and tries again at the next intent', async () => {
    const win = freshFrame();
    const errors: unknown[] = [];
    win.console.error = (...args: unknown[]) => errors.push(args[0]);
    await loadWithoutTheRest(win);
    win.document.body.innerHTML = '<agent-chat proxy-url="/unloadable"></agent-chat>';
    const chat = win.document.querySelector('agent-chat') as AgentChat;
    chat.show();
    await waitUntil(() => shadowText(chat, 'error') !== null, 'a problem is shown', WAIT);
    expect(shadowText(chat, 'error')).to.equal('The chat could not load. Check the connection and reload the page.');
    expect(chat.shadowRoot!.querySelector('[part~="error"]')!.getAttribute('role')).to.equal('alert');
    expect(errors, 'the developer is told').to.have.length(1);
    chat.hide();
    chat.show();
    await waitUntil(() => errors.length === 2, 'tried again', WAIT);
  });

  it('says so in the site\'s words where `strings.loadFailed` sets them (right to left in a language written so), and in English on a page of another language where it does not (the shell carries no other language\'s words for it)', async () => {
    const win = freshFrame();
    win.console.error = () => undefined;
    await loadWithoutTheRest(win);
    win.document.documentElement.lang = 'el';
    win.document.body.innerHTML = '<agent-chat proxy-url="/unloadable"></agent-chat><agent-chat proxy-url="/unloadable-too" mode="inline"></agent-chat>'
      + '<agent-chat proxy-url="/unloadable-rtl" mode="inline"></agent-chat>';
    const [own, english, rtl] = [...win.document.querySelectorAll('agent-chat')] as AgentChat[];
    own.strings = { loadFailed: 'Η συνομιλία δεν φορτώθηκε. Ελέγξτε τη σύνδεση και φορτώστε ξανά τη σελίδα.' };
    // A right-to-left language's words on this left-to-right page: written right to left.
    rtl.strings = { loadFailed: 'הצ׳אט לא נטען. בדקו את החיבור וטענו את הדף מחדש.' };
    own.show();
    await waitUntil(() => [own, english, rtl].every((chat) => shadowText(chat, 'error') !== null), 'a problem is shown in each', WAIT);
    expect(shadowText(own, 'error')).to.equal('Η συνομιλία δεν φορτώθηκε. Ελέγξτε τη σύνδεση και φορτώστε ξανά τη σελίδα.');
    expect(shadowText(english, 'error')).to.equal('The chat could not load. Check the connection and reload the page.');
    const direction = (chat: AgentChat) => getComputedStyle(chat.shadowRoot!.querySelector('[part~="error"]')!).direction;
    expect([own, english, rtl].map(direction), 'each as its words are written').to.deep.equal(['ltr', 'ltr', 'rtl']);
  });

  it('inline, the panel that is loading (or could not load) fills the box the site gives the chat, as the loaded panel does', async () => {
    const win = freshFrame();
    expect(win.document.compatMode, 'a page in standards mode').to.equal('CSS1Compat');
    win.console.error = () => {};
    await loadWithoutTheRest(win);
    win.document.body.innerHTML = '<div style="height: 460px"><agent-chat mode="inline" proxy-url="/unloadable"></agent-chat></div>';
    const chat = win.document.querySelector('agent-chat') as AgentChat;
    await waitUntil(() => shadowText(chat, 'error') !== null, 'a problem is shown', WAIT);
    expect(chat.shadowRoot!.querySelector('[part~="panel"]')!.getBoundingClientRect().height, 'the panel\'s height').to.equal(460);
  });

  it('on a phone, the panel that is loading (or could not load) covers the page but not the launcher, which closes it; once loaded, the header\'s close button does', async () => {
    const network = `/flaky/${crypto.randomUUID()}`;
    const phone = async () => {
      const win = freshFrame();
      frames.at(-1)!.style.cssText = 'width: 320px; height: 640px; border: 0';
      await loadScript(win, 'agent-chat.js', { src: new URL(`${network}/agent-chat.js`, location.href).href });
      win.document.body.innerHTML = '<agent-chat proxy-url="/phone"></agent-chat>';
      return win.document.querySelector('agent-chat') as AgentChat;
    };
    /** What a tap at the launcher's place reaches. */
    const tapped = (chat: AgentChat) => {
      const { x, y, width, height } = chat.shadowRoot!.querySelector('[part~="launcher"]')!.getBoundingClientRect();
      return width ? chat.shadowRoot!.elementFromPoint(x + width / 2, y + height / 2)?.getAttribute('part') : 'nothing: hidden';
    };
    await fetch(`${network}/down`);
    const chat = await phone();
    chat.show();
    await waitUntil(() => shadowText(chat, 'error') !== null, 'the problem is shown', WAIT);
    const panel = chat.shadowRoot!.querySelector('[part~="panel"]')!.getBoundingClientRect();
    expect([panel.width, panel.height], 'the panel covers the page').to.deep.equal([320, 640]);
    expect(tapped(chat), 'the launcher is above it').to.equal('launcher');
    chat.shadowRoot!.querySelector<HTMLElement>('[part~="launcher"]')!.click();
    expect(chat.open, 'closed').to.equal(false);

    await fetch(`${network}/up`);
    const reloaded = await phone();
    reloaded.show();
    await waitUntil(() => shadowText(reloaded, 'bubble') === 'Hi!', 'loaded', WAIT);
    expect(tapped(reloaded), 'the launcher is hidden under the loaded panel').to.equal('nothing: hidden');
    expect(reloaded.shadowRoot!.querySelector('[part~="close-button"]'), 'the header closes it').to.not.equal(null);
  });

  it('the launcher\'s news of a reply that came while the panel was closed, with the preview\'s code late or offline: none once the visitor has opened the panel before it came; the badge without a preview where it cannot load', async () => {
    const page = async (proxy: string) => {
      const network = `/flaky/${crypto.randomUUID()}`;
      const win = freshFrame();
      win.console.error = () => {}; // (the developer is told of the chunk that could not load)
      await loadScript(win, 'agent-chat.js', { src: new URL(`${network}/agent-chat.js`, location.href).href });
      win.document.body.innerHTML = `<agent-chat proxy-url="${proxy}" open></agent-chat>`;
      const chat = win.document.querySelector('agent-chat') as AgentChat;
      await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'greeted', WAIT);
      return { network, chat, replies: () => chat.shadowRoot!.querySelectorAll('[part~="bubble--agent"]').length };
    };
    // A slow connection: the preview's code, asked for as the panel closes, comes late.
    const late = await page('/news-late');
    await fetch(`${late.network}/hold?only=nudge-feature`);
    late.chat.hide();
    late.chat.send('my order?');
    await waitUntil(() => late.replies() === 2, 'answered while closed', WAIT);
    late.chat.show(); // the visitor opens the panel and sees the reply
    await waitUntil(() => late.chat.shadowRoot!.querySelector('[part~="panel"]:not([hidden])'), 'the panel open', WAIT);
    await fetch(`${late.network}/release`);
    await late.chat.updateComplete; // (waits for the preview's code)
    late.chat.hide();
    await late.chat.updateComplete;
    expect([shadowText(late.chat, 'badge'), shadowText(late.chat, 'preview')], 'closed again: no news of the reply they saw').to.deep.equal([null, null]);

    // Offline: the preview's code does not load; the badge tells of the reply all the same.
    const offline = await page('/news-offline');
    await fetch(`${offline.network}/down?only=nudge-feature`);
    offline.chat.hide();
    offline.chat.send('my order?');
    await waitUntil(() => shadowText(offline.chat, 'badge') === '1', 'the badge tells of the reply', WAIT);
    expect(shadowText(offline.chat, 'preview'), 'no preview').to.equal(null);
  });

  for (const [build, module] of [['ES module', true], ['classic script', false]] as const) {
    for (const back of ['the browser says it is online again', 'the visitor opens the panel again'] as const) {
      it(`as ${build === 'ES module' ? 'an' : 'a'} ${build}: the view could not load (the connection dropped); once it is back and ${back}, it loads or says so again, and a reload loads it`, async () => {
        const network = `/flaky/${crypto.randomUUID()}`;
        const file = module ? 'agent-chat.js' : 'agent-chat.iife.js';
        const page = async () => {
          const win = freshFrame();
          const errors: unknown[] = [];
          win.console.error = (...args: unknown[]) => errors.push(args[0]);
          await loadScript(win, file, { module, src: new URL(`${network}/${file}`, location.href).href });
          win.document.body.innerHTML = '<agent-chat proxy-url="/flaky-proxy"></agent-chat>';
          return { win, chat: win.document.querySelector('agent-chat') as AgentChat, errors };
        };
        const { win, chat, errors } = await page();
        await fetch(`${network}/down`);
        chat.show();
        await waitUntil(() => shadowText(chat, 'error') !== null, 'the problem is shown', WAIT);
        expect(shadowText(chat, 'error')).to.equal('The chat could not load. Check the connection and reload the page.');
        await fetch(`${network}/up`);
        if (back === 'the browser says it is online again') {
          // The panel still shows the problem: nothing for the visitor to do but wait.
          win.dispatchEvent(new Event('online'));
        } else {
          chat.hide();
          chat.show();
        }
        // Chromium and WebKit fetch the view again; Firefox keeps the failed module until a reload.
        await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!' || errors.length === 2, 'loaded, or said again', WAIT);
        if (errors.length === 2) expect(shadowText(chat, 'error')).to.equal('The chat could not load. Check the connection and reload the page.');
        const reloaded = await page();
        reloaded.chat.show();
        await waitUntil(() => shadowText(reloaded.chat, 'bubble') === 'Hi!', 'the reloaded page loads it and greets', WAIT);
        expect(reloaded.errors).to.deep.equal([]);
      });
    }
  }

  it('a feature whose chunk cannot load (offline): the microphone and the download say so and the developer is told; once the connection is back, a download (or, where the browser keeps the failed module, a reload) works; closing the panel offline (the preview\'s chunk) raises no error', async () => {
    const network = `/flaky/${crypto.randomUUID()}`;
    const page = async () => {
      const win = freshFrame();
      const uncaught: unknown[] = [];
      const logged: unknown[] = [];
      win.addEventListener('unhandledrejection', (event) => uncaught.push(event.reason));
      win.addEventListener('error', (event) => uncaught.push(event.message));
      win.console.error = (...args: unknown[]) => logged.push(args[0]);
      (win as unknown as { SpeechRecognition: unknown }).SpeechRecognition = class { start() {} stop() {} abort() {} };
      const downloads: string[] = [];
      win.HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        downloads.push(this.download);
      };
      await loadScript(win, 'agent-chat.js', { src: new URL(`${network}/agent-chat.js`, location.href).href });
      win.document.body.innerHTML = '<agent-chat proxy-url="/offline-features"></agent-chat>';
      const chat = win.document.querySelector('agent-chat') as AgentChat;
      chat.show();
      await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'greeted', WAIT);
      const download = () => chat.shadowRoot!.querySelector<HTMLElement>('[part~="download-button"]')!.click();
      return { win, chat, uncaught, logged, downloads, download };
    };
    const PROBLEM = 'Could not download the conversation. Check the connection and reload the page.';
    const { win, chat, uncaught, logged, downloads, download } = await page();
    // The frame is a small screen: the panel asked for the phone viewport's chunk as it opened. It
    // has come before the connection goes (on a busy machine the greeting can show first).
    await waitUntil(() => win.performance.getEntriesByType('resource').some((entry) => entry.name.includes('/chunks/mobile-viewport-controller')), "the viewport's chunk loaded", WAIT);
    await fetch(`${network}/down`);
    chat.shadowRoot!.querySelector<HTMLElement>('[part~="mic-button"]')!.click();
    await waitUntil(() => shadowText(chat, 'error') !== null, 'the microphone says it cannot', WAIT);
    expect(shadowText(chat, 'error')).to.equal('Voice input is not available.');
    download();
    await waitUntil(() => shadowText(chat, 'error') === PROBLEM, 'the download says it cannot', WAIT);
    expect(chat.shadowRoot!.querySelector('[part~="error"]')!.getAttribute('role')).to.equal('alert');
    expect(logged, 'the developer is told').to.deep.equal(['agent-chat: could not load its dictation code', 'agent-chat: could not load its transcript code']);
    expect(downloads, 'nothing downloaded').to.deep.equal([]);
    chat.hide(); // loads the preview's chunk, for a reply that arrives while closed: it cannot
    await waitUntil(() => logged.length === 3, 'the preview could not load either', WAIT);
    expect(logged[2]).to.equal('agent-chat: could not load its nudge code');
    chat.show();

    await fetch(`${network}/up`);
    download();
    // A browser that fetches a failed module again downloads now; others keep the failure until a reload.
    await waitUntil(() => downloads.length === 1 || logged.length === 4, 'downloaded, or failed again', WAIT);
    if (downloads.length) {
      expect(downloads[0]).to.match(/^conversation-\d{4}-\d{2}-\d{2}\.txt$/);
      await waitUntil(() => shadowText(chat, 'error') === null, 'the problem goes', WAIT);
    } else {
      expect(shadowText(chat, 'error')).to.equal(PROBLEM);
    }
    expect(uncaught, 'no uncaught error').to.deep.equal([]);
    win.frameElement!.remove();

    const reloaded = await page();
    reloaded.download();
    await waitUntil(() => reloaded.downloads.length === 1, 'the reloaded page downloads', WAIT);
    expect(reloaded.logged).to.deep.equal([]);
  });
});

describe('keys typed before the rest of the widget has loaded (a slow connection)', () => {
  /** A frame whose shell loads the rest from /flaky/<run>/, held until `release()`. */
  async function slowFrame(html: string) {
    const network = `/flaky/${crypto.randomUUID()}`;
    await fetch(`${network}/hold`);
    const win = freshFrame();
    await loadScript(win, 'agent-chat.js', { src: new URL(`${network}/agent-chat.js`, location.href).href });
    win.document.body.innerHTML = html;
    return { win, chat: win.document.querySelector('agent-chat') as AgentChat, release: () => fetch(`${network}/release`) };
  }
  /**
   * Typed a word at a time, each with its space: WebKitGTK's driver lets go of the keys only at the
   * end of a command, and a second space in one command made no key press there.
   */
  const type = async (text: string) => {
    for (const word of text.match(/\S+\s*/g)!) await sendKeys({ type: word });
  };
  const focused = (chat: AgentChat) => chat.shadowRoot!.activeElement as HTMLTextAreaElement | null;
  const composerInput = (chat: AgentChat) => chat.shadowRoot!.querySelector<HTMLTextAreaElement>('[part~="input"]');
  const draftKey = (proxy: string) => `agent-chat:${new URL(proxy, location.href).href}:draft`;
  afterEach(() => sessionStorage.clear());

  it('go to the input, after the draft the tab kept, with the focus; a space does not close the panel, and an Enter is a new line there: only the Enter in the input sends', async () => {
    sessionStorage.setItem(draftKey('/typed'), 'Hello. ');
    const { win, chat, release } = await slowFrame('<agent-chat proxy-url="/typed"></agent-chat>');
    chat.shadowRoot!.querySelector<HTMLElement>('[part~="launcher"]')!.click();
    const skeleton = focused(chat);
    expect(skeleton?.localName, 'the focus in the panel that is loading, in a text area').to.equal('textarea');
    expect(skeleton!.getAttribute('aria-label'), 'named').to.equal('Chat');
    await type('Where is my order');
    await sendKeys({ press: 'Enter' });
    expect(chat.open, 'each space typed, not a press of the launcher').to.equal(true);
    expect(skeleton!.value).to.equal('Where is my order\n');
    expect(composerInput(chat), 'still loading').to.equal(null);

    await release();
    await waitUntil(() => composerInput(chat), 'the panel loaded', WAIT);
    await chat.updateComplete;
    const input = composerInput(chat)!;
    expect(input.value, 'after the draft the tab kept').to.equal('Hello. Where is my order\n');
    expect(focused(chat), 'the focus in the input').to.equal(input);
    expect(chat.shadowRoot!.querySelector('textarea:not([part])'), 'the skeleton gone').to.equal(null);
    await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'greeted', WAIT);
    expect(win.requests.map((r) => r.body.message.text ?? r.body.message.payload), 'nothing sent by the Enter typed while it loaded').to.deep.equal([{ type: 'node', data: 'greeting' }]);

    await sendKeys({ press: 'Enter' });
    await waitUntil(() => win.requests.length === 2, 'sent by the Enter in the input', WAIT);
    expect(win.requests[1].body.message.text).to.equal('Hello. Where is my order');
  });

  it('inline: typed in the panel while it loads, the words and the focus go on in the input', async () => {
    const { chat, release } = await slowFrame('<div style="height: 460px"><agent-chat mode="inline" proxy-url="/typed-inline"></agent-chat></div>');
    const skeleton = chat.shadowRoot!.querySelector<HTMLTextAreaElement>('[part~="panel"] textarea')!;
    skeleton.focus(); // (the visitor's click into it)
    await type('Opening hours');
    await release();
    await waitUntil(() => composerInput(chat), 'the panel loaded', WAIT);
    await chat.updateComplete;
    expect(composerInput(chat)!.value).to.equal('Opening hours');
    expect(focused(chat), 'the focus in the input').to.equal(composerInput(chat));
    await sendKeys({ type: '?' });
    expect(composerInput(chat)!.value, 'typed on where it was').to.equal('Opening hours?');
  });

  it('where the visitor did not type in it (the page opened the panel), the focus stays with the page and the input is empty', async () => {
    const { win, chat, release } = await slowFrame('<input id="search"><agent-chat proxy-url="/typed-page"></agent-chat>');
    const search = win.document.querySelector<HTMLInputElement>('#search')!;
    search.focus();
    chat.show();
    await release();
    await waitUntil(() => composerInput(chat), 'the panel loaded', WAIT);
    await chat.updateComplete;
    expect(composerInput(chat)!.value).to.equal('');
    expect(win.document.activeElement, 'the page\'s field keeps the focus').to.equal(search);
  });

  it('typed in while the last of the rest loads (the UI text of the page\'s language), the words stay when the site changes an attribute then: the panel is the view\'s to draw from there', async () => {
    const network = `/flaky/${crypto.randomUUID()}`;
    await fetch(`${network}/hold?only=chunks/de-`);
    const win = freshFrame();
    win.document.documentElement.lang = 'de';
    await loadScript(win, 'agent-chat.js', { src: new URL(`${network}/agent-chat.js`, location.href).href });
    win.document.body.innerHTML = '<agent-chat proxy-url="/typed-de"></agent-chat>';
    const chat = win.document.querySelector('agent-chat') as AgentChat;
    chat.shadowRoot!.querySelector<HTMLElement>('[part~="launcher"]')!.click();
    await type('Wo ist ');
    // The view has loaded and asks for the German words: the shell has handed the panel over.
    await waitUntil(async () => (await (await fetch(`${network}/held`)).text()) === '1', 'the German words asked for', WAIT);
    chat.agentTitle = 'Hilfe';
    await type('mein Paket');
    await fetch(`${network}/release`);
    await waitUntil(() => composerInput(chat), 'the panel loaded', WAIT);
    await chat.updateComplete;
    expect(composerInput(chat)!.value, 'every word typed').to.equal('Wo ist mein Paket');
    expect(focused(chat) === composerInput(chat), 'the focus in the input').to.equal(true);
  });

  it('the panel that is loading is, to assistive technology, what the loaded panel will be: a dialog beside a launcher, a region inline, named as its title will be, and busy until then', async () => {
    const { win, release } = await slowFrame('<agent-chat proxy-url="/named" agent-title="Acme support" open></agent-chat>'
      + '<div style="height: 460px"><agent-chat proxy-url="/named-inline" mode="inline"></agent-chat></div>');
    const chats = [...win.document.querySelectorAll('agent-chat')] as AgentChat[];
    /** The panel's role, its name (its own, or its title's once loaded) and whether it says it is busy. */
    const semantics = (chat: AgentChat) => {
      const panel = chat.shadowRoot!.querySelector('[part~="panel"]')!;
      const title = panel.getAttribute('aria-labelledby');
      return [panel.getAttribute('role'), title ? chat.shadowRoot!.getElementById(title)!.textContent!.trim() : panel.getAttribute('aria-label'), panel.getAttribute('aria-busy') === 'true'];
    };
    expect(chats.map(semantics), 'loading').to.deep.equal([['dialog', 'Acme support', true], ['region', 'Chat', true]]);
    const controlled = () => chats[0].shadowRoot!.getElementById(chats[0].shadowRoot!.querySelector('[part~="launcher"]')!.getAttribute('aria-controls')!);
    expect(controlled()?.getAttribute('part'), 'the launcher says which panel it opens').to.equal('panel');
    await release();
    await waitUntil(() => chats.every((chat) => composerInput(chat)), 'both loaded', WAIT);
    await Promise.all(chats.map((chat) => chat.updateComplete));
    expect(chats.map(semantics), 'loaded').to.deep.equal([['dialog', 'Acme support', false], ['region', 'Chat', false]]);
    expect(controlled()?.getAttribute('part'), 'and once loaded').to.equal('panel');
  });

  it('an element the site takes off the page while the rest loads stays out of it (nothing is greeted or drawn for it); put back, it greets once', async () => {
    const { win, chat, release } = await slowFrame('<agent-chat proxy-url="/taken-off" open></agent-chat>');
    const errors: string[] = [];
    win.addEventListener('error', (event) => errors.push(event.message));
    win.addEventListener('unhandledrejection', (event) => errors.push(String(event.reason)));
    chat.remove();
    // The page's next view, with a chat of its own: once it has greeted, the rest has loaded and each
    // element waiting for it has had its turn (the first in line first).
    const next = win.document.createElement('agent-chat') as AgentChat;
    next.setAttribute('proxy-url', '/stays');
    next.setAttribute('open', '');
    win.document.body.append(next);
    await release();
    await waitUntil(() => shadowText(next, 'bubble') === 'Hi!', 'the chat in the page greeted', WAIT);
    await chat.updateComplete;
    const to = (path: string) => win.requests.filter((r) => r.url.endsWith(path)).length;
    expect([to('/taken-off'), to('/stays')], 'greeted: only the chat in the page').to.deep.equal([0, 1]);
    expect(!!chat.shadowRoot!.querySelector('[part~="input"]'), 'nothing drawn for the element out of the page').to.equal(false);
    win.document.body.prepend(chat);
    await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'put back: greeted', WAIT);
    await chat.updateComplete;
    expect([to('/taken-off'), to('/stays')], 'once').to.deep.equal([1, 1]);
    expect(errors).to.deep.equal([]);
  });
});

describe('the UI text of another language', () => {
  it('could not load (offline) when the page switched to it: asked again at the next send, once the connection is back (where the browser fetches a failed module again; others keep it until a reload)', async () => {
    const network = `/flaky/${crypto.randomUUID()}`;
    const win = freshFrame();
    const uncaught: unknown[] = [];
    win.addEventListener('unhandledrejection', (event) => uncaught.push(event.reason));
    await loadScript(win, 'agent-chat.js', { src: new URL(`${network}/agent-chat.js`, location.href).href });
    win.document.body.innerHTML = '<agent-chat proxy-url="/offline-language"></agent-chat>';
    const chat = win.document.querySelector('agent-chat') as AgentChat;
    chat.show();
    await waitUntil(() => shadowText(chat, 'bubble') === 'Hi!', 'greeted', WAIT);
    const placeholder = () => chat.shadowRoot!.querySelector('[part~="input"]')!.getAttribute('placeholder');
    expect(placeholder()).to.equal('Type a message…');
    await fetch(`${network}/down`);
    chat.language = 'el';
    // The times are drawn again in Greek once the table has been asked for (and could not load).
    await waitUntil(() => !/AM|PM/.test(shadowText(chat, 'time')!), 'the log drawn again', WAIT);
    expect(placeholder(), 'English, for now').to.equal('Type a message…');
    await fetch(`${network}/up`);
    chat.send('Γεια σας');
    if (!(await retriesFailedModules())) return expect(uncaught).to.deep.equal([]);
    await waitUntil(() => placeholder() === 'Γράψτε ένα μήνυμα…', `the Greek text, at the send; the input says "${placeholder()}"`, WAIT);
    expect(uncaught).to.deep.equal([]);
  });
});

describe('the launcher drawn before any script (launcherSnippet)', () => {
  /** What a visitor sees of each launcher: where, how big, its colours, and what it says. */
  const look = (win: Frame, chat: Element) => {
    const button = chat.shadowRoot!.querySelector<HTMLElement>('[part~="launcher"]')!;
    const { x, y, width, height } = button.getBoundingClientRect();
    const style = win.getComputedStyle(button);
    return {
      box: [x, y, width, height], background: style.backgroundColor, color: style.color, shadow: style.boxShadow, radius: style.borderRadius,
      label: button.getAttribute('aria-label'), expanded: button.getAttribute('aria-expanded'), icon: button.querySelector('path')?.getAttribute('d'),
    };
  };

  it('is the shell\'s own launcher, inert until the script takes over: nothing moves or changes then, and it works as usual', async () => {
    const win = freshFrame();
    const variants = [{ attributes: '' }, { attributes: ' position="left"' }, { attributes: ' theme="dark"' }, { attributes: ' language="el"', language: 'el' }];
    win.document.body.setHTMLUnsafe(variants.map(({ attributes, language }) =>
      `<agent-chat proxy-url="/snippet"${attributes}>${launcherSnippet({ language })}</agent-chat>`).join(''));
    const chats = [...win.document.querySelectorAll('agent-chat')];
    expect(win.customElements.get('agent-chat'), 'no script yet').to.equal(undefined);
    const before = chats.map((chat) => look(win, chat));
    expect(before[0]).to.include({ label: 'Open chat', expanded: 'false' });
    expect(before[0].box.slice(2), '56 px round button').to.deep.equal([56, 56]);
    expect(before[1].box[0], 'position="left" puts it on the left').to.be.below(before[0].box[0]);
    expect(before[2].background, 'theme="dark" is drawn dark already').not.to.equal(before[0].background);
    expect(before[3].label).to.equal('Άνοιγμα συνομιλίας');
    // Inert until the script runs: nothing to open yet, and focus there would be lost at the takeover.
    const focusable = (chat: Element) => {
      const button = chat.shadowRoot!.querySelector<HTMLElement>('[part~="launcher"]')!;
      button.focus();
      return chat.shadowRoot!.activeElement === button;
    };
    expect(chats.map(focusable), 'not focusable before the script').to.deep.equal([false, false, false, false]);

    await loadScript(win, '/dist/agent-chat.js');
    expect(chats.map((chat) => look(win, chat)), 'the same launchers once the shell has drawn them').to.deep.equal(before);
    expect(chats.map(focusable), 'focusable once the shell has drawn it').to.deep.equal([true, true, true, true]);
    for (const chat of chats) {
      expect(chat.shadowRoot!.querySelectorAll('[part~="launcher"]'), 'one launcher').to.have.length(1);
      expect(chat.shadowRoot!.querySelector('style'), 'the snippet\'s sheet gave way to the shell\'s').to.equal(null);
    }
    chats[0].shadowRoot!.querySelector<HTMLElement>('[part~="launcher"]')!.click();
    await waitUntil(() => shadowText(chats[0], 'bubble') === 'Hi!', 'greeted after the click', WAIT);
  });

  it('is not shown where no script can run (JavaScript turned off, a frame sandboxed without scripts): a button there could never open anything', async () => {
    const shown = async (sandbox: string | null) => {
      const frame = document.createElement('iframe');
      if (sandbox !== null) frame.setAttribute('sandbox', sandbox);
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      frame.srcdoc = `<!doctype html><html><body><agent-chat proxy-url="/snippet">${launcherSnippet()}</agent-chat></body></html>`;
      document.body.append(frame);
      frames.push(frame);
      await loaded;
      const button = frame.contentDocument!.querySelector('agent-chat')!.shadowRoot!.querySelector('[part~="launcher"]')!;
      return button.getBoundingClientRect().width > 0;
    };
    expect(await shown('allow-same-origin'), 'no scripts: no launcher').to.equal(false);
    expect(await shown('allow-same-origin allow-scripts'), 'scripts allowed: the launcher, before any has run').to.equal(true);
    expect(await shown(null), 'a frame of the page').to.equal(true);
  });

  it('says the site\'s own words, which stay text', async () => {
    const win = freshFrame();
    const label = '"><img src=x onerror="window.__pwned=1"> & <b>';
    win.document.body.setHTMLUnsafe(`<agent-chat proxy-url="/snippet">${launcherSnippet({ label })}</agent-chat>`);
    const chat = win.document.querySelector('agent-chat')!;
    expect(look(win, chat).label).to.equal(label);
    expect(chat.shadowRoot!.querySelectorAll('img, b'), 'no markup from the label').to.have.length(0);
    expect(launcherSnippet({ language: 'de-AT' })).to.include('aria-label="Chat öffnen"');
  });

  it('allows its style under a strict style-src with the hash it gives', async () => {
    const win = freshFrame();
    win.document.body.setHTMLUnsafe(launcherSnippet());
    const text = win.document.body.querySelector('template')?.content.querySelector('style')?.textContent
      ?? win.document.body.shadowRoot?.querySelector('style')?.textContent;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text!)));
    expect(await launcherStyleHash()).to.equal(`'sha256-${btoa(String.fromCharCode(...digest))}'`);
  });
});
