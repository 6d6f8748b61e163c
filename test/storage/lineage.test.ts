import { expect } from '@open-wc/testing';
import { lostWrites, remember, type Written } from '../../src/storage/lineage.js';
import { createStore, LINEAGE_DEPTH } from '../../src/storage/store.js';
import { fakeStorage } from '../support/fake-storage.js';

/** A write as a tab remembers it: its lineage (itself first) and, here, a name for what it changed. */
const write = (lineage: number[], what: string): Written<[string]> => [lineage, what];
const whats = (written: Written<[string]>[]) => written.map(([, what]) => what);

const isString = (v: unknown): v is string => typeof v === 'string';

// ConversationController keeps a tab's last writes of a key (remember) and, when it reads another
// tab's write, makes again on top of it what that write was made without (lostWrites).
describe('lineage', () => {
  it('remember keeps a tab\'s last writes, as many as a lineage names, oldest first', () => {
    let written: Written<[string]>[] = [];
    for (let n = 1; n <= LINEAGE_DEPTH + 4; n++) written = remember(written, write([n], `w${n}`));
    expect(written.length).to.equal(LINEAGE_DEPTH);
    expect(whats(written)[0], 'the oldest kept').to.equal('w5');
    expect(whats(written).at(-1), 'the newest, last').to.equal(`w${LINEAGE_DEPTH + 4}`);
  });

  // This tab wrote 1, 2 and 3, each on the one before, the first on nothing stored (the write 0).
  const mine = [write([1, 0], 'first'), write([2, 1, 0], 'second'), write([3, 2, 1, 0], 'third')];
  const table: [string, number[], string[]][] = [
    ['made on its last write: none lost', [9, 3, 2, 1, 0], []],
    ['made on its second write: the third', [9, 2, 1, 0], ['third']],
    ['made on its first write: the two after it, in order', [9, 1, 0], ['second', 'third']],
    ['made on what both had read (the other tab wrote at the same time): all three', [9, 0], ['first', 'second', 'third']],
    ['made on none of the writes these were made on (a tab that did not read for longer than a lineage reaches): none, it cannot tell', [9, 8, 7], []],
  ];
  for (const [what, lineage, lost] of table) {
    it(`lostWrites: another tab's write ${what}`, () => expect(whats(lostWrites(mine, lineage))).to.deep.equal(lost));
  }

  it('lostWrites: of the writes after the last one the other was made on, only those that forked from its line', () => {
    // After its first write, this tab read a write of a line the other tab's is not on, and wrote on that.
    const written = [write([1, 0], 'first'), write([2, 7, 6], 'on another line')];
    expect(whats(lostWrites(written, [9, 1, 0]))).to.deep.equal([]);
  });

  it('the lineages two tabs\' stores give name what one tab wrote that the other\'s write was made without', () => {
    const { storage } = fakeStorage(); // one localStorage, two tabs' stores
    const a = createStore('site', () => storage);
    const b = createStore('site', () => storage);
    let written: Written<[string]>[] = [];
    const writeInA = (value: string) => {
      a.set('k', value);
      written = remember(written, write(a.lineage('k'), value));
    };
    writeInA('first');
    expect(b.reread('k', isString)).to.equal('first');
    writeInA('second');
    writeInA('third');
    b.set('k', 'theirs'); // made on "first": it has not read A's later writes
    expect(a.reread('k', isString)).to.equal('theirs');
    expect(whats(lostWrites(written, a.lineage('k'))), 'to make again on top of it').to.deep.equal(['second', 'third']);
    // Made again and written, they are on B's line: B's next write, made on that one, loses nothing.
    writeInA('second and third again');
    expect(b.reread('k', isString)).to.equal('second and third again');
    b.set('k', 'theirs, later');
    expect(a.reread('k', isString)).to.equal('theirs, later');
    expect(whats(lostWrites(written, a.lineage('k')))).to.deep.equal([]);
  });
});
