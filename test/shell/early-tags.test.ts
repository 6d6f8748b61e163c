/**
 * Session tags made before the rest of the widget has loaded: the shell keeps them in storage
 * (keepTags), where the engine's store takes them up (EARLY_TAGS_KEY), whichever page or tab makes
 * the next request.
 */
import { expect } from '@open-wc/testing';
import { EARLY_TAGS_KEY } from '../../src/controllers/conversation-controller.js';
import { keepTags } from '../../src/shell/early-tags.js';
import { createStore } from '../../src/storage/store.js';

const url = `${location.origin}/early-tags/${Date.now()}`;
const key = `agent-chat:${url}:${EARLY_TAGS_KEY}`;

describe('session tags the shell keeps', () => {
  afterEach(() => localStorage.removeItem(key));

  it('are kept where the engine takes them up, in the order made, and taken only once', () => {
    expect(keepTags(url, { add: ['saw-pricing'] })).to.equal(true);
    expect(keepTags(url, { remove: ['new-visitor'] })).to.equal(true);
    const store = createStore(`agent-chat:${url}`);
    expect(store.take(EARLY_TAGS_KEY)).to.deep.equal([{ add: ['saw-pricing'] }, { remove: ['new-visitor'] }]);
    expect(localStorage.getItem(key), 'gone from storage once taken').to.equal(null);
    expect(store.take(EARLY_TAGS_KEY), 'nothing left to take').to.equal(null);
  });

  it('do not grow with a tag a site sets on every page view: the same operation made again moves to the end', () => {
    for (let page = 0; page < 50; page++) {
      keepTags(url, { add: ['vip'] });
      keepTags(url, { remove: ['vip'] });
    }
    keepTags(url, { add: ['vip'] });
    expect(JSON.parse(localStorage.getItem(key)!)).to.deep.equal([{ remove: ['vip'] }, { add: ['vip'] }]);
  });

  it('are refused (the page keeps them) when storage holds something else there or refuses to be written', () => {
    localStorage.setItem(key, '{not json');
    expect(keepTags(url, { add: ['vip'] }), 'corrupt').to.equal(false);
    expect(createStore(`agent-chat:${url}`).take(EARLY_TAGS_KEY), 'the store drops what it cannot read').to.equal(undefined);
    expect(localStorage.getItem(key)).to.equal(null);
    const { setItem } = Storage.prototype;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      expect(keepTags(url, { add: ['vip'] }), 'storage full').to.equal(false);
    } finally {
      Storage.prototype.setItem = setItem;
    }
  });
});
