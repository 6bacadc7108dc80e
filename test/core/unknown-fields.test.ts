// The unknown-key walk beside a schema: shapes no operation uses yet (variants, arrays of objects,
// open records) and the field it suggests.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { nearestKey, unknownFields } from '../../core/platform/pipeline/unknown-fields';

describe('unknownFields', () => {
  const schema = v.object({
    attendees: v.array(v.object({ firstName: v.string() })),
    answers: v.optional(v.record(v.string(), v.unknown())),
    door: v.optional(
      v.variant('kind', [
        v.object({ kind: v.literal('entrance'), main: v.boolean() }),
        v.object({ kind: v.literal('session'), sessionId: v.string() }),
      ]),
    ),
    settings: v.optional(v.looseObject({ colour: v.string() })),
  });

  it('names keys in array items by their index and leaves records and loose objects open', () => {
    const found = unknownFields(schema, {
      attendees: [{ firstName: 'A' }, { firstName: 'B', fristName: 'B' }],
      answers: { anything: { at: 'all' } },
      settings: { colour: 'red', extra: true },
    });
    expect(found).toEqual([
      { field: 'attendees.1.fristName', message: 'Not a field; did you mean firstName?' },
    ]);
  });

  it('reads a variant by the option its discriminator picks', () => {
    const found = unknownFields(schema, {
      attendees: [],
      door: { kind: 'entrance', main: true, sessionId: 'x' },
    });
    expect(found).toEqual([{ field: 'door.sessionId', message: 'Not a field.' }]);
  });
});

describe('nearestKey', () => {
  it('finds a slip, a swap, another case or snake_case, and nothing for a different word', () => {
    const known = ['capacity', 'maxPerOrder', 'name'];
    expect(nearestKey('capcity', known)).toBe('capacity');
    expect(nearestKey('capacitiy', known)).toBe('capacity');
    expect(nearestKey('CAPACITY', known)).toBe('capacity');
    expect(nearestKey('max_per_order', known)).toBe('maxPerOrder');
    expect(nearestKey('nmae', known)).toBe('name');
    expect(nearestKey('seats', known)).toBeUndefined();
  });
});
