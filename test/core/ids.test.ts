// New ids (core/platform/ids.ts): UUID version 7 whose random bytes come from a pool, still in the
// order they were made (within one millisecond too), never repeated, and new bytes each time.
import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newId } from '../../core/platform/ids';

describe('newId', () => {
  it('makes version 7 UUIDs, in the order they were made, none twice', () => {
    // Far more than one pool of random bytes, most of them within the same millisecond.
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
      expect(id[19]).toMatch(/[89ab]/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries its time: the first 48 bits are the milliseconds it was made at', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    const msecs = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(after + 1);
  });

  it('draws new random bytes for every id', () => {
    const tails = new Set(Array.from({ length: 600 }, () => newId().slice(-12)));
    expect(tails.size).toBe(600);
  });
});
