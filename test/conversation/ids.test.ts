import { expect } from '@open-wc/testing';
import { isUuid, newId } from '../../src/conversation/ids.js';

describe('newId', () => {
  it('returns distinct v4-shaped UUIDs', () => {
    const ids = new Set(Array.from({ length: 50 }, newId));
    expect(ids.size).to.equal(50);
    for (const id of ids) expect(isUuid(id), id).to.equal(true);
  });

  it('still returns UUIDs where crypto.randomUUID is missing (plain-http pages)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const [a, b] = [newId(), newId()];
      expect(isUuid(a), a).to.equal(true);
      expect(a).not.to.equal(b);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
      delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof crypto.randomUUID, 'restored').to.equal('function');
  });
});
