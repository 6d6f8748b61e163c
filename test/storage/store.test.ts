import { expect } from '@open-wc/testing';
import { createStore, LINEAGE_DEPTH } from '../../src/storage/store.js';

const isString = (v: unknown): v is string => typeof v === 'string';

/** A Storage whose methods can be made to throw. */
function fakeStorage(fail: { get?: boolean; set?: boolean } = {}) {
  const data = new Map<string, string>();
  return {
    data,
    storage: {
      getItem: (k: string) => { if (fail.get) throw new DOMException('blocked', 'SecurityError'); return data.get(k) ?? null; },
      setItem: (k: string, v: string) => { if (fail.set) throw new DOMException('full', 'QuotaExceededError'); data.set(k, v); },
      removeItem: (k: string) => { data.delete(k); },
    } as unknown as Storage,
  };
}

describe('createStore', () => {
  it('round-trips values in a versioned envelope under its namespace', () => {
    const { data, storage } = fakeStorage();
    createStore('ns', () => storage).set('k', 'v');
    const { w, ...envelope } = JSON.parse(data.get('ns:k')!);
    expect(envelope).to.deep.equal({ a: [], v: 1, data: 'v' });
    expect(w, 'which write it is').to.be.a('number');
    expect(createStore('ns', () => storage).get('k', isString)).to.equal('v');
  });

  const corrupt: [string, string][] = [
    ['not JSON', '{oops'],
    ['no envelope', '"bare"'],
    ['a future version', '{"v":99,"data":"x"}'],
    ['a value that fails the guard', '{"v":1,"data":42}'],
  ];
  for (const [what, raw] of corrupt) {
    it(`discards ${what} instead of failing`, () => {
      const { data, storage } = fakeStorage();
      data.set('ns:k', raw);
      expect(createStore('ns', () => storage).get('k', isString)).to.equal(undefined);
      expect(data.has('ns:k'), 'removed').to.equal(false);
    });
  }

  it('keeps working in memory when storage throws on every call', () => {
    const { storage } = fakeStorage({ get: true, set: true });
    const store = createStore('ns', () => storage);
    store.set('k', 'v');
    expect(store.get('k', isString)).to.equal('v');
  });

  it('reread finds what another writer stored, or took away', () => {
    const { storage } = fakeStorage();
    const mine = createStore('ns', () => storage);
    const theirs = createStore('ns', () => storage);
    mine.set('k', 'mine');
    theirs.set('k', 'theirs');
    expect(mine.get('k', isString), 'get: the memory copy').to.equal('mine');
    expect(mine.reread('k', isString), 'reread: storage').to.equal('theirs');
    theirs.set('k', undefined);
    expect(mine.reread('k', isString), 'taken away').to.equal(undefined);
  });

  it('changed: whether another writer stored something else since this store last read or wrote', () => {
    const { data, storage } = fakeStorage();
    const mine = createStore('ns', () => storage);
    const theirs = createStore('ns', () => storage);
    expect(mine.changed('k'), 'nothing anywhere').to.equal(false);
    mine.set('k', 'mine');
    expect(mine.changed('k'), 'its own write').to.equal(false);
    theirs.set('k', 'theirs');
    expect(mine.changed('k'), 'another write').to.equal(true);
    expect(theirs.changed('k')).to.equal(false);
    mine.reread('k', isString);
    expect(mine.changed('k'), 'read since').to.equal(false);
    data.delete('ns:k');
    expect(mine.changed('k'), 'taken away').to.equal(true);
    const long = 'x'.repeat(200); // (a store keeps only which write it was, not the value)
    mine.set('k', `${long}mine`);
    theirs.set('k', `${long}theirs`);
    expect(mine.changed('k'), 'another write that differs only at its end').to.equal(true);
    for (const backing of [fakeStorage({ get: true, set: true }).storage, undefined]) {
      const store = createStore('ns', () => backing);
      store.set('k', 'v');
      expect(store.changed('k'), backing ? 'storage throws: nothing to tell' : 'no storage').to.equal(false);
    }
    const full = fakeStorage({ set: true });
    const kept = createStore('ns', () => full.storage);
    full.data.set('ns:k', JSON.stringify({ v: 1, data: 'before' }));
    kept.get('k', isString);
    kept.set('k', 'not written'); // storage is full: it still holds what was read
    expect(kept.changed('k'), 'a write that failed').to.equal(false);
  });

  it('lineage: a write names the writes it was made on; one made without reading another\'s does not name it', () => {
    const { data, storage } = fakeStorage();
    const isNumber = (v: unknown): v is number => typeof v === 'number';
    const [tabA, tabB] = [createStore('ns', () => storage), createStore('ns', () => storage)];
    expect(tabA.lineage('k'), 'nothing read or written').to.deep.equal([]);
    const first = tabA.set('k', 1)!;
    expect(first).to.be.a('number');
    expect(tabA.lineage('k')).to.deep.equal([first]);
    tabB.reread('k', isNumber);
    expect(tabB.lineage('k'), 'what B read').to.deep.equal([first]);
    const second = tabB.set('k', 2)!;
    expect(tabB.lineage('k'), 'B wrote on what it read').to.deep.equal([second, first]);
    // A had not heard of B's write: its write names the one it knew, not B's.
    const third = tabA.set('k', 3)!;
    tabB.reread('k', isNumber);
    expect(tabB.lineage('k'), 'B reads a write that was not made on its own').to.deep.equal([third, first]);
    for (let i = 0; i < LINEAGE_DEPTH + 4; i++) tabB.set('k', i);
    expect(tabB.lineage('k'), 'as deep as LINEAGE_DEPTH').to.have.length(LINEAGE_DEPTH);
    // A value written by an older version (no lineage) says nothing; nothing stored (a value taken
    // away, or none yet) is the write 0, which two tabs' first writes were both made on.
    data.set('ns:k', JSON.stringify({ w: 0.5, v: 1, data: 1 }));
    tabA.reread('k', isNumber);
    expect(tabA.lineage('k')).to.deep.equal([]);
    tabA.set('k', 4);
    data.delete('ns:k');
    tabA.reread('k', isNumber);
    expect(tabA.lineage('k')).to.deep.equal([0]);
    tabB.reread('k', isNumber);
    const [fromA, fromB] = [tabA.set('k', 5)!, tabB.set('k', 6)!];
    tabA.reread('k', isNumber);
    expect(tabA.lineage('k'), 'B wrote on nothing too, not having read A').to.deep.equal([fromB, 0]);
    expect(fromA).to.not.equal(0);
    // Not written (no storage, or full): no write to name.
    expect(createStore('ns', () => undefined).set('k', 1)).to.equal(undefined);
    expect(createStore('ns', () => fakeStorage({ set: true }).storage).set('k', 1)).to.equal(undefined);
  });

  it('reread keeps the memory copy when storage cannot be read, or there is none', () => {
    for (const backing of [fakeStorage({ get: true, set: true }).storage, undefined]) {
      const store = createStore('ns', () => backing);
      store.set('k', 'v');
      expect(store.reread('k', isString), backing ? 'throws' : 'none').to.equal('v');
    }
  });

  it('keeps working when there is no storage at all', () => {
    const store = createStore('ns', () => undefined);
    store.set('k', 'v');
    expect(store.get('k', isString)).to.equal('v');
  });
});
