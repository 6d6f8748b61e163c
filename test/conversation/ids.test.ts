import { expect } from '@open-wc/testing';
import { isUuid, newId } from '../../src/conversation/ids.js';

/** Runs `run` with the page's crypto.randomUUID standing as `value` (an own property over Crypto's, taken away after). */
function withRandomUUID(value: unknown, run: () => void) {
  Object.defineProperty(crypto, 'randomUUID', { value, configurable: true });
  try {
    run();
  } finally {
    delete (crypto as { randomUUID?: unknown }).randomUUID;
  }
}

describe('newId', () => {
  it('returns distinct v4-shaped UUIDs', () => {
    const ids = new Set(Array.from({ length: 50 }, newId));
    expect(ids.size).to.equal(50);
    for (const id of ids) expect(isUuid(id), id).to.equal(true);
  });

  it('still returns UUIDs where crypto.randomUUID is missing (plain-http pages)', () => {
    withRandomUUID(undefined, () => {
      const [a, b] = [newId(), newId()];
      expect(isUuid(a), a).to.equal(true);
      expect(a).not.to.equal(b);
    });
    expect(typeof crypto.randomUUID, 'restored').to.equal('function');
  });

  it('takes crypto.randomUUID where the page has it', () => {
    const made = '3f2b8c1e-9a4d-4e6f-8b7a-0c1d2e3f4a5b';
    withRandomUUID(() => made, () => expect(newId()).to.equal(made));
  });
});

describe('isUuid', () => {
  const id = '3f2b8c1e-9a4d-4e6f-8b7a-0c1d2e3f4a5b';
  const table: [string, unknown, boolean][] = [
    ['a UUID', id, true],
    ['in capitals', id.toUpperCase(), true],
    ['with something before it', `x${id}`, false],
    ['with something after it', `${id}x`, false],
    ['another string', 'sender-1', false],
    ['empty', '', false],
    ['an object that writes itself as a UUID', { toString: () => id }, false],
    ['a number', 42, false],
    ['undefined', undefined, false],
  ];
  for (const [what, value, expected] of table) {
    it(`${what} → ${expected}`, () => expect(isUuid(value)).to.equal(expected));
  }
});
