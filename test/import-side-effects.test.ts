import { expect } from '@open-wc/testing';
import { loadBundleInto } from './support/widget.js';

describe('loading the bundle', () => {
  it('makes no request and touches no storage before an element is connected', async () => {
    // A fresh document, so the module is evaluated here for the first time.
    const frame = document.createElement('iframe');
    document.body.append(frame);
    try {
      const win = frame.contentWindow as Window & typeof globalThis & { calls: string[] };
      win.calls = [];
      const fetchSpy = win.fetch;
      win.fetch = ((...args: Parameters<typeof fetch>) => { win.calls.push(`fetch ${String(args[0])}`); return fetchSpy(...args); }) as typeof fetch;
      for (const method of ['getItem', 'setItem', 'removeItem'] as const) {
        const original = win.Storage.prototype[method];
        win.Storage.prototype[method] = function (this: Storage, ...args: [string, string]) {
          win.calls.push(`storage ${method}`);
          return (original as (...a: unknown[]) => unknown).apply(this, args);
        } as never;
      }
      await loadBundleInto(frame);
      expect(win.customElements.get('agent-chat'), 'registered').to.exist;
      win.document.createElement('agent-chat'); // created, not connected
      expect(win.calls).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});
