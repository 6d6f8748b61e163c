/**
 * Session tags made before the rest of the widget has loaded: the shell keeps them in storage
 * (keepTags), each tag under a key of its own, where the engine's store takes them up
 * (EARLY_TAGS_KEY), whichever page or tab makes the next request.
 */
import { expect } from '@open-wc/testing';
import { EARLY_TAGS_KEY } from '../../src/controllers/conversation-controller.js';
import { keepTags } from '../../src/shell/early-tags.js';
import { createStore } from '../../src/storage/store.js';

const url = `${location.origin}/early-tags/${Date.now()}`;
const prefix = `agent-chat:${url}:${EARLY_TAGS_KEY}:`;
const kept = () => Object.keys(localStorage).filter((key) => key.startsWith(prefix)).sort();

describe('session tags the shell keeps', () => {
  afterEach(() => kept().forEach((key) => localStorage.removeItem(key)));

  it('are kept where the engine takes them up, each tag with the last operation made on it, and taken only once', () => {
    expect(keepTags(url, { add: ['saw-pricing', 'vip'] })).to.equal(true);
    expect(keepTags(url, { remove: ['new-visitor', 'vip'] })).to.equal(true);
    const store = createStore(`agent-chat:${url}`);
    expect(store.take(EARLY_TAGS_KEY).map(([tag, kind]) => `${kind} ${tag}`).sort()).to.deep.equal(['add saw-pricing', 'remove new-visitor', 'remove vip']);
    expect(kept(), 'gone from storage once taken').to.deep.equal([]);
    expect(store.take(EARLY_TAGS_KEY), 'nothing left to take').to.deep.equal([]);
  });

  it('do not grow with a tag a site sets on every page view: one key for each tag', () => {
    for (let page = 0; page < 50; page++) {
      keepTags(url, { add: ['vip'] });
      keepTags(url, { remove: ['vip'] });
    }
    keepTags(url, { add: ['vip'] });
    expect(kept()).to.deep.equal([`${prefix}vip`]);
    expect(localStorage.getItem(`${prefix}vip`)).to.equal('add');
  });

  it("each tag under a key of its own: keeping one writes no other (two tabs' shells each wrote the whole list from their own copy of storage, and one tab's tags were lost: the two-tab test's single-page run, seed 17)", () => {
    // A tab whose copy had not yet seen the other's write wrote the list it had, without the other's
    // tag. A key for each tag has no list to write over.
    keepTags(url, { add: ['from-a'] });
    keepTags(url, { add: ['from-b'] });
    expect(kept()).to.deep.equal([`${prefix}from-a`, `${prefix}from-b`]);
  });

  it('are refused (the page keeps them) when storage refuses to be written; the store takes nothing where storage cannot be read', () => {
    const { setItem, getItem } = Storage.prototype;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    try {
      expect(keepTags(url, { add: ['vip'] }), 'storage full').to.equal(false);
    } finally {
      Storage.prototype.setItem = setItem;
    }
    keepTags(url, { add: ['vip'] });
    expect(createStore(`agent-chat:${url}`, () => undefined).take(EARLY_TAGS_KEY), 'no storage').to.deep.equal([]);
    Storage.prototype.getItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    try {
      expect(createStore(`agent-chat:${url}`).take(EARLY_TAGS_KEY), 'storage that cannot be read').to.deep.equal([]);
    } finally {
      Storage.prototype.getItem = getItem;
    }
    expect(kept(), 'left for a store that can read it').to.deep.equal([`${prefix}vip`]);
  });
});
