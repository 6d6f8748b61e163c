import { expect } from '@open-wc/testing';
import { createStore, LINEAGE_DEPTH, PART_SIZE } from '../../src/storage/store.js';
import { fakeStorage } from '../support/fake-storage.js';

const isString = (v: unknown): v is string => typeof v === 'string';

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

  it('a value taken away (written as undefined) is a write like any other: read back as nothing, and left in storage as written', () => {
    const { data, storage } = fakeStorage();
    const mine = createStore('ns', () => storage);
    const theirs = createStore('ns', () => storage);
    mine.set('k', 'mine');
    const w = theirs.set('k', undefined);
    const written = data.get('ns:k');
    expect(mine.reread('k', isString)).to.equal(undefined);
    expect(data.get('ns:k'), 'not removed as if it were corrupt').to.equal(written);
    expect(mine.changed('k'), 'read: nothing new since').to.equal(false);
    expect(mine.lineage('k')[0], 'the write it read').to.equal(w);
    expect(createStore('ns', () => storage).get('k', isString), 'a store that reads it first').to.equal(undefined);
    expect(data.get('ns:k')).to.equal(written);
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

  describe('a long list of messages, stored in parts', () => {
    interface Message { id: string; text: string }
    interface Held { messages: Message[]; title?: string }
    const isHeld = (v: unknown): v is Held => typeof v === 'object' && v !== null && Array.isArray((v as Held).messages);
    const messages = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: `m${from + i}`, text: `message ${from + i}` }));
    /** The part keys in storage. */
    const partKeys = (data: Map<string, string>) => [...data.keys()].filter((k) => k.startsWith('ns:~')).sort();

    it('keeps the newest in the value and the older ones in parts, read back as one list', () => {
      const { data, storage } = fakeStorage();
      const value = { title: 'kept as it is', messages: messages(0, 2 * PART_SIZE + 30) };
      createStore('ns', () => storage).set('k', value);
      const stored = JSON.parse(data.get('ns:k')!).data;
      expect(stored.messages, 'the newest, between one and two parts of them').to.deep.equal(value.messages.slice(PART_SIZE));
      expect(stored.p, 'the parts, by their first message').to.deep.equal([['~m0', 0]]);
      expect(JSON.parse(data.get('ns:~m0')!)).to.deep.equal(value.messages.slice(0, PART_SIZE));
      expect(createStore('ns', () => storage).get('k', isHeld), 'read back').to.deep.equal(value);
      // Up to twice a part's size, all in the value.
      const short = { messages: messages(0, 2 * PART_SIZE) };
      createStore('short', () => storage).set('k', short);
      expect(JSON.parse(data.get('short:k')!).data, 'stored as it is').to.deep.equal(short);
    });

    it('a message added writes the value only; a part is written once its messages are older than two parts\' worth', () => {
      const { data, writes, storage } = fakeStorage();
      const store = createStore('ns', () => storage);
      let list = messages(0, 3 * PART_SIZE);
      store.set('k', { messages: list });
      expect(partKeys(data)).to.deep.equal(['ns:~m0']);
      writes.length = 0;
      for (let n = 3 * PART_SIZE; n < 4 * PART_SIZE; n++) {
        list = [...list, ...messages(n, n + 1)];
        store.set('k', { messages: list });
      }
      expect(writes.filter((k) => k !== 'ns:k'), 'one part, once').to.deep.equal(['ns:~m50']);
      expect(writes, 'and the value at each message').to.have.length(PART_SIZE + 1);
      expect(createStore('ns', () => storage).get('k', isHeld)!.messages).to.deep.equal(messages(0, 4 * PART_SIZE));
    });

    it('the oldest messages leave without a part being written; a part all of whose messages have left goes', () => {
      const { data, writes, storage } = fakeStorage();
      const store = createStore('ns', () => storage);
      let list = messages(0, 4 * PART_SIZE);
      store.set('k', { messages: list });
      expect(partKeys(data)).to.deep.equal(['ns:~m0', 'ns:~m50']);
      writes.length = 0;
      list = list.slice(10);
      store.set('k', { messages: list });
      expect(writes, 'the value only').to.deep.equal(['ns:k']);
      expect(JSON.parse(data.get('ns:k')!).data.p, 'the first part without its first ten').to.deep.equal([['~m0', 10], ['~m50', 0]]);
      expect(createStore('ns', () => storage).get('k', isHeld)!.messages, 'read back').to.deep.equal(list);
      list = list.slice(PART_SIZE - 10);
      store.set('k', { messages: list });
      expect(partKeys(data), 'the first part is gone').to.deep.equal(['ns:~m50']);
      expect(createStore('ns', () => storage).get('k', isHeld)!.messages).to.deep.equal(list);
    });

    it('a changed message writes its part again, under its name; another writer that has not read it yet names it and keeps the change', () => {
      const { data, writes, storage } = fakeStorage();
      const [tabA, tabB] = [createStore('ns', () => storage), createStore('ns', () => storage)];
      tabA.set('k', { messages: messages(0, 4 * PART_SIZE) });
      const read = tabB.get('k', isHeld)!;
      const inA = tabA.get('k', isHeld)!.messages;
      writes.length = 0;
      tabA.set('k', { messages: inA.map((m) => (m.id === 'm60' ? { ...m, text: 'rated' } : m)) });
      expect(writes, 'the second part and the value').to.deep.equal(['ns:~m50', 'ns:k']);
      // B had not read A's write: it adds a message to what it read.
      tabB.set('k', { messages: [...read.messages, ...messages(200, 201)] });
      const now = createStore('ns', () => storage).get('k', isHeld)!.messages;
      expect(now.find((m) => m.id === 'm60')!.text, 'the change is in the part B names').to.equal('rated');
      expect(now.map((m) => m.id)).to.deep.equal(messages(0, 4 * PART_SIZE + 1).map((m) => m.id));
      expect(partKeys(data), 'B sealed a third').to.deep.equal(['ns:~m0', 'ns:~m100', 'ns:~m50']);
    });

    it('a message changed or taken out writes its own part again, under its name, and no other', () => {
      const { data, writes, storage } = fakeStorage();
      const store = createStore('ns', () => storage);
      let list = messages(0, 6 * PART_SIZE);
      store.set('k', { messages: list });
      const parts = partKeys(data);
      expect(parts).to.deep.equal(['ns:~m0', 'ns:~m100', 'ns:~m150', 'ns:~m50']);
      const check = (what: string, expected: string[]) => {
        store.set('k', { messages: list });
        expect(writes.splice(0), what).to.deep.equal(expected);
        expect(partKeys(data), `${what}: the same parts`).to.deep.equal(parts);
        expect(createStore('ns', () => storage).get('k', isHeld)!.messages, `${what}: read back`).to.deep.equal(list);
      };
      writes.length = 0;
      list = list.map((m) => (m.id === 'm75' ? { ...m, text: 'rated' } : m));
      check('a change in the second part', ['ns:~m50', 'ns:k']);
      list = list.filter((m) => m.id !== 'm120');
      check('one taken out of the third', ['ns:~m100', 'ns:k']);
      list = list.filter((m) => m.id !== 'm150');
      check('the first of the fourth taken out: it is skipped', ['ns:k']);
    });

    it('a part that is gone loses its messages, not the rest; the next write no longer names it', () => {
      const { data, storage } = fakeStorage();
      createStore('ns', () => storage).set('k', { title: 't', messages: messages(0, 4 * PART_SIZE) });
      data.delete('ns:~m0');
      expect(createStore('ns', () => storage).get('k', isHeld)).to.deep.equal({ title: 't', messages: messages(PART_SIZE, 4 * PART_SIZE) });
      createStore('ns', () => storage).set('k', { messages: messages(0, 5 * PART_SIZE) });
      data.delete('ns:~m50');
      const store = createStore('ns', () => storage);
      const read = store.get('k', isHeld)!;
      expect(read.messages.map((m) => m.id), 'the second part gone').to.deep.equal([...messages(0, PART_SIZE), ...messages(2 * PART_SIZE, 5 * PART_SIZE)].map((m) => m.id));
      store.set('k', { messages: [...read.messages, ...messages(250, 251)] });
      expect(JSON.parse(data.get('ns:k')!).data.p.map(([name]: [string]) => name)).to.deep.equal(['~m0', '~m100', '~m150']);
    });

    for (const [what, raw] of [['not JSON', '[{"id":"m0"'], ['not a list', '{"id":"m0"}']]) {
      it(`a part that cannot be read (${what}: corrupt) loses its messages, not the rest`, () => {
        const { data, storage } = fakeStorage();
        createStore('ns', () => storage).set('k', { title: 't', messages: messages(0, 4 * PART_SIZE) });
        data.set('ns:~m50', raw);
        expect(createStore('ns', () => storage).get('k', isHeld)).to.deep.equal({ title: 't', messages: [...messages(0, PART_SIZE), ...messages(2 * PART_SIZE, 4 * PART_SIZE)] });
        expect(data.has('ns:k'), 'the value stays').to.equal(true);
      });
    }

    it("a value written under another key (a conversation put away) names the parts its messages were read from, without writing them: another writer's newer write of one stays", () => {
      const { writes, storage } = fakeStorage();
      const [tabA, tabB] = [createStore('ns', () => storage), createStore('ns', () => storage)];
      tabA.set('conversation', { messages: messages(0, 4 * PART_SIZE) });
      const seenByB = tabB.get('conversation', isHeld)!;
      // A changes a message of the first part (its question answered) ...
      tabA.set('conversation', { messages: tabA.get('conversation', isHeld)!.messages.map((m) => (m.id === 'm10' ? { ...m, text: 'answered' } : m)) });
      writes.length = 0;
      // ... and B, not having read it, puts the conversation away as it last read it (found by
      // TAB_SEEDS=1201: its part written again from B's copy, A's question was sent again).
      tabB.set('archive', seenByB);
      expect(writes, 'the value only').to.deep.equal(['ns:archive']);
      const putAway = createStore('ns', () => storage).get('archive', isHeld)!.messages;
      expect(putAway.find((m) => m.id === 'm10')!.text, "A's change is in the part it names").to.equal('answered');
      expect(putAway.map((m) => m.id)).to.deep.equal(messages(0, 4 * PART_SIZE).map((m) => m.id));
    });

    it('parts that another key names stay (a conversation put away); they go once no key names them', () => {
      const { data, storage } = fakeStorage();
      const store = createStore('ns', () => storage);
      const first = { messages: messages(0, 4 * PART_SIZE) };
      store.set('conversation', first);
      store.set('archive', first);
      store.set('conversation', { messages: messages(1000, 1001) });
      expect(partKeys(data), 'named by the archive').to.deep.equal(['ns:~m0', 'ns:~m50']);
      expect(createStore('ns', () => storage).get('archive', isHeld), 'read back').to.deep.equal(first);
      store.set('archive', { messages: messages(1000, 1001) });
      expect(partKeys(data), 'named by none').to.deep.equal([]);
    });

    it('storage that is full keeps the memory copy and what was stored', () => {
      const { data, storage } = fakeStorage();
      createStore('ns', () => storage).set('k', { messages: messages(0, 3 * PART_SIZE) });
      const before = new Map(data);
      const full = fakeStorage({ set: true });
      for (const [k, v] of before) full.data.set(k, v);
      const store = createStore('ns', () => full.storage);
      store.get('k', isHeld);
      const more = { messages: messages(0, 5 * PART_SIZE) };
      expect(store.set('k', more), 'not written').to.equal(undefined);
      expect(store.get('k', isHeld), 'memory').to.deep.equal(more);
      expect(full.data, 'storage as it was').to.deep.equal(before);
    });
  });
});
