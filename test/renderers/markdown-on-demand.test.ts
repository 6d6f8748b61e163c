import { expect, waitUntil } from '@open-wc/testing';
import { FakeProxy, ok, text } from '../support/fake-proxy.js';
import { bubbles, mount, part, WAIT, waitForBubbles } from '../support/widget.js';

// marked and DOMPurify are more than half of the panel's bytes: they are a chunk of their own,
// which the view asks for after it is painted (while the greeting is on its way), so that neither
// the panel nor a plain reply waits for it (test/e2e/demo.spec.ts holds the chunk to show that).
// This file imports neither, so the page's resource entries say when the widget did.
const loaded = (pattern: RegExp) => performance.getEntriesByType('resource').some((e) => pattern.test(e.name));
const markdownLoaded = () => loaded(/\/(marked|dompurify)\/|\/renderers\/(markdown|sanitize)\./);

const buttons = {
  type: 'buttons', text: 'What would you like to do?', altText: 'What would you like to do? Pricing',
  buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'pricing' } }],
};

describe('markdown on demand', () => {
  it('a plain greeting is drawn without markdown, which the view asks for after it; a markdown reply is drawn with it', async () => {
    const proxy = new FakeProxy()
      .next(ok(text("Hi! I'm the demo agent.\nAsk me anything.\n\nOr pick one:"), buttons))
      .next(ok(text('Here is **bold** and `code`:\n\n```\nnpm install agent-chat\n```')));
    const { chat } = await mount(proxy, { open: true });
    await waitForBubbles(chat, 2);
    const greeting = part(chat, 'bubble')!;
    expect(greeting.innerHTML.replace(/<!--[^]*?-->/g, '')).to.equal("<p>Hi! I'm the demo agent.<br>Ask me anything.</p>\n<p>Or pick one:</p>\n");
    await waitUntil(markdownLoaded, 'the view asks for the markdown chunk', WAIT);

    chat.send('Show me');
    await waitUntil(() => chat.shadowRoot!.querySelector('[part~="bubble"] strong'), `the markdown reply drawn; saw ${JSON.stringify(bubbles(chat))}`, WAIT);
    const reply = [...chat.shadowRoot!.querySelectorAll('[part~="bubble"]')].at(-1)!;
    expect(reply.querySelector('strong')!.textContent).to.equal('bold');
    expect(reply.querySelector(':not(pre) > code')!.textContent).to.equal('code');
    expect(reply.querySelector('pre')!.textContent).to.equal('npm install agent-chat\n');
    expect(reply.querySelector('[part~="copy-button"]'), 'the code block has its copy button').to.exist;
  });
});
