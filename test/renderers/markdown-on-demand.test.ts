import { expect, waitUntil } from '@open-wc/testing';
import { FakeProxy, ok, text } from '../support/fake-proxy.js';
import { bubbles, mount, part, typeDraft, WAIT, waitForBubbles } from '../support/widget.js';

// marked and DOMPurify are more than half of the panel's bytes: a conversation loads them when a
// reply needs them, or as soon as the visitor starts typing (a reply is coming), not to open the
// panel and show a plain greeting with its buttons. This file imports neither, so the page's
// resource entries say whether the widget did.
const markdownLoaded = () => performance.getEntriesByType('resource').some((e) => /\/(marked|dompurify)\/|\/renderers\/(markdown|sanitize)\./.test(e.name));

const buttons = {
  type: 'buttons', text: 'What would you like to do?', altText: 'What would you like to do? Pricing',
  buttons: [{ title: 'Pricing', payload: { type: 'node', data: 'pricing' } }],
};

describe('markdown on demand', () => {
  it('a plain greeting with buttons is drawn without marked or DOMPurify; typing loads them; a markdown reply is drawn with them', async () => {
    const proxy = new FakeProxy()
      .next(ok(text("Hi! I'm the demo agent.\nAsk me anything.\n\nOr pick one:"), buttons))
      .next(ok(text('Here is **bold** and `code`:\n\n```\nnpm install agent-chat\n```')));
    const { chat } = await mount(proxy, { open: true });
    await waitForBubbles(chat, 2);
    const greeting = part(chat, 'bubble')!;
    expect(greeting.innerHTML.replace(/<!--[^]*?-->/g, '')).to.equal("<p>Hi! I'm the demo agent.<br>Ask me anything.</p>\n<p>Or pick one:</p>\n");
    expect(markdownLoaded(), 'marked or DOMPurify loaded for a plain greeting').to.equal(false);

    await typeDraft(chat, 'Show me');
    await waitUntil(markdownLoaded, 'typing loads the markdown chunk ahead of the reply', WAIT);

    chat.send('Show me');
    await waitUntil(() => chat.shadowRoot!.querySelector('[part~="bubble"] strong'), `the markdown reply drawn; saw ${JSON.stringify(bubbles(chat))}`, WAIT);
    const reply = [...chat.shadowRoot!.querySelectorAll('[part~="bubble"]')].at(-1)!;
    expect(reply.querySelector('strong')!.textContent).to.equal('bold');
    expect(reply.querySelector(':not(pre) > code')!.textContent).to.equal('code');
    expect(reply.querySelector('pre')!.textContent).to.equal('npm install agent-chat\n');
    expect(reply.querySelector('[part~="copy-button"]'), 'the code block has its copy button').to.exist;
  });
});
