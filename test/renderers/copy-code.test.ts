/** The copy button of a code block: the exact code on the clipboard, "Copied" said to screen readers; a refusal said too. */
import { expect, waitUntil } from '@open-wc/testing';
import { ok, text } from '../support/fake-proxy.js';
import { mount, part, parts, useFakeProxies, WAIT } from '../support/widget.js';

const CODE = 'const chat = document.querySelector("agent-chat");\nchat.show();';

describe('copying code from a reply', () => {
  const proxy = useFakeProxies();
  let restore: () => void;
  let copied: string[];
  let refuse: boolean;
  beforeEach(() => {
    copied = [];
    refuse = false;
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (t: string) => (refuse ? Promise.reject(new DOMException('denied', 'NotAllowedError')) : void copied.push(t)) },
    });
    restore = () => {
      delete (navigator as { clipboard?: unknown }).clipboard;
      if (original && !Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard')) Object.defineProperty(Navigator.prototype, 'clipboard', original);
    };
  });
  afterEach(() => restore());

  it('copies the code exactly and says so, where screen readers hear it', async () => {
    const p = proxy();
    p.next(ok(text(`Try this:\n\n\`\`\`js\n${CODE}\n\`\`\`\n\nand \`inline\` code has no button.`)));
    const { chat } = await mount(p, { open: true });
    await waitUntil(() => part(chat, 'copy-button'), 'the button', WAIT);
    expect(parts(chat, 'copy-button'), 'one per block, none for inline code').to.have.length(1);
    const button = part(chat, 'copy-button')!;
    expect(button.textContent).to.equal('Copy');
    expect(button.nextElementSibling!.localName, 'above its block').to.equal('pre');
    button.click();
    await waitUntil(() => copied.length === 1, 'copied', WAIT);
    expect(copied[0]).to.equal(CODE);
    await waitUntil(() => button.textContent === 'Copied', 'confirmed', WAIT);
    const status = button.parentElement!.querySelector('[role="status"]')!;
    expect(status.textContent).to.equal('Copied');
  });

  it('a refused clipboard says what to do instead', async () => {
    refuse = true;
    const p = proxy();
    p.next(ok(text('```\nnpm install agent-chat\n```')));
    const { chat } = await mount(p, { open: true });
    await waitUntil(() => part(chat, 'copy-button'), 'the button', WAIT);
    part(chat, 'copy-button')!.click();
    const status = part(chat, 'copy-button')!.parentElement!.querySelector('[role="status"]')!;
    await waitUntil(() => status.textContent !== '', 'said', WAIT);
    expect(status.textContent).to.equal('Could not copy: select the text instead.');
    expect(part(chat, 'copy-button')!.textContent).to.equal('Copy');
  });
});
