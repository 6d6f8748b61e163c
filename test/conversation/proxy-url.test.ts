import { expect } from '@open-wc/testing';
import { resolveProxyUrl } from '../../src/conversation/proxy-url.js';

// What the conversation's storage keys, the early tags and the tab's draft are named by: pages that
// write one URL differently share them.
describe('resolveProxyUrl', () => {
  it('resolves a path against the page', () => {
    expect(resolveProxyUrl('/chat')).to.equal(`${location.origin}/chat`);
    expect(resolveProxyUrl('chat')).to.equal(new URL('chat', document.baseURI).href);
  });

  it('keeps an absolute URL, written as the URL parser writes it', () => {
    expect(resolveProxyUrl('https://Site.example/chat')).to.equal('https://site.example/chat');
  });

  it('gives back as written a URL that cannot be resolved', () => {
    expect(resolveProxyUrl('http://[')).to.equal('http://[');
  });
});
