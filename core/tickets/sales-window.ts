// A ticket type's sales window, as sent in UTC or in venue time (UTC wins; null clears an edge),
// shared by creating and changing a ticket type.
import * as v from 'valibot';
import type { FieldErrors } from '../platform/field-errors';
import { dateTime, localTime } from '../platform/schemas';
import { fromLocal } from '../platform/time';

export const salesWindowFields = {
  salesStartUtc: v.optional(v.nullable(dateTime('Null: open now. Wins over salesStartLocal.'))),
  salesEndUtc: v.optional(v.nullable(dateTime('Null: until the event. Wins over salesEndLocal.'))),
  salesStartLocal: v.optional(v.nullable(localTime('Opening'))),
  salesEndLocal: v.optional(v.nullable(localTime('Closing'))),
};

export interface SalesWindowInput {
  salesStartUtc?: string | null;
  salesEndUtc?: string | null;
  salesStartLocal?: string | null;
  salesEndLocal?: string | null;
}

/** The window's edges in UTC; edges not sent stay as `current`. Reports unreal local times and a close before the open. */
export function resolveSalesWindow(
  input: SalesWindowInput,
  zone: string,
  current: { start: string | null; end: string | null },
  errors: FieldErrors,
): { start: string | null; end: string | null } {
  const edge = (
    utc: string | null | undefined,
    local: string | null | undefined,
    field: string,
    fallback: string | null,
  ) => {
    if (utc !== undefined) return utc === null ? null : new Date(utc).toISOString();
    if (local !== undefined) {
      if (local === null) return null;
      const parsed = fromLocal(local, zone);
      if (!parsed) errors.add(field, `Not a real local time in ${zone}.`);
      return parsed;
    }
    return fallback;
  };
  const start = edge(input.salesStartUtc, input.salesStartLocal, 'salesStartLocal', current.start);
  const end = edge(input.salesEndUtc, input.salesEndLocal, 'salesEndLocal', current.end);
  if (start && end && end <= start) errors.add('salesEndUtc', 'Sales must close after they open.');
  return { start, end };
}
