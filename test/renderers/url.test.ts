import { expect } from '@open-wc/testing';
import { safeImageUrl, safeLinkUrl } from '../../src/renderers/url.js';

describe('safeLinkUrl', () => {
  const table: [unknown, string | undefined][] = [
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://example.com', 'http://example.com/'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['tel:+301234567', 'tel:+301234567'],
    ['  HTTPS://EXAMPLE.COM  ', 'https://example.com/'],
    ['\u00a0https://example.com/a\u3000', 'https://example.com/a'],
    ['/relative/path', 'https://page.example/relative/path'],
    ['javascript:alert(1)', undefined],
    ['JAVASCRIPT:alert(1)', undefined],
    ['  javascript:alert(1)', undefined],
    ['java\tscript:alert(1)', undefined],
    ['java\nscript:alert(1)', undefined],
    ['\u0001javascript:alert(1)', undefined],
    ['java\u200bscript:alert(1)', undefined],
    ['vbscript:msgbox(1)', undefined],
    ['data:text/html,<script>alert(1)</script>', undefined],
    ['file:///etc/passwd', undefined],
    ['blob:https://example.com/uuid', undefined],
    ['', undefined],
    [42, undefined],
    [null, undefined],
  ];
  for (const [input, expected] of table) {
    it(`${JSON.stringify(input)} → ${expected ?? 'dropped'}`, () => {
      expect(safeLinkUrl(input, 'https://page.example/dir/')).to.equal(expected);
    });
  }
  it('javascript&colon; stays an inert relative path, never a scheme', () => {
    expect(safeLinkUrl('javascript&colon;alert(1)', 'https://page.example/')).to.equal('https://page.example/javascript&colon;alert(1)');
    expect(safeLinkUrl('javascript&colon;alert(1)')).to.equal(undefined);
  });
});

describe('safeImageUrl', () => {
  const table: [unknown, string | undefined][] = [
    ['https://example.com/i.png', 'https://example.com/i.png'],
    ['http://example.com/i.png', 'http://example.com/i.png'],
    ['data:image/png;base64,iVBORw0KGgo=', 'data:image/png;base64,iVBORw0KGgo='],
    ['data:image/svg+xml;base64,PHN2Zz4=', undefined],
    ['data:image/jpg;base64,/9j/4AAQ', 'data:image/jpg;base64,/9j/4AAQ'],
    ['data:image/png;base64,iVBORw0K\nGgo=', 'data:image/png;base64,iVBORw0K\nGgo='],
    ['  data:image/png;base64,iVBORw0KGgo=\n', 'data:image/png;base64,iVBORw0KGgo='],
    ['data:image/png;base64,iVBO"><script>alert(1)</script>', undefined],
    ['data:text/html;base64,PHNjcmlwdD4=#data:image/png;base64,iVBO', undefined],
    ['https://example.com/i.png?from=data:x', 'https://example.com/i.png?from=data:x'],
    [{ toString: () => 'data:image/png;base64,iVBO' }, undefined],
    ['data:text/html;base64,PHNjcmlwdD4=', undefined],
    ['javascript:alert(1)', undefined],
    ['mailto:a@b.c', undefined],
    [undefined, undefined],
  ];
  for (const [input, expected] of table) {
    const named = typeof input === 'object' && input ? `an object that writes itself as ${String(input)}` : JSON.stringify(input);
    it(`${named} → ${expected ?? 'dropped'}`, () => {
      expect(safeImageUrl(input, 'https://page.example/')).to.equal(expected);
    });
  }
});
