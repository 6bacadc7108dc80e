// What a journey is made of, for booking and changing one: the mode, from and to, departure before
// arrival (UTC, stored as given in ISO form), and the booking reference (personal data).
import * as v from 'valibot';
import { travelModes } from '../../db/values';
import type { FieldErrors } from '../platform/field-errors';
import { oneLine } from '../platform/schemas';

const place = (description: string) =>
  v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200), v.description(description));
const instant = (description: string) =>
  v.pipe(v.string(), v.isoTimestamp(), v.description(`${description} (ISO 8601 with offset or Z).`));

export const travelFields = {
  mode: v.pipe(v.picklist(travelModes), v.description('flight, train, bus, car or other.')),
  from: place('Where it starts.'),
  to: place('Where it ends.'),
  departsUtc: instant('Departure'),
  arrivesUtc: instant('Arrival, after departure'),
  reference: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(100),
    v.description('Booking reference. Personal data.'),
  ),
};

/** An instant as stored: UTC, to the millisecond. */
export const utc = (instant: string) => new Date(instant).toISOString();

/** Arrival after departure, with the stored time standing in for one not sent; places not blank. */
export function checkJourney(
  input: { from?: string; to?: string; reference?: string | null },
  departs: string,
  arrives: string,
  errors: FieldErrors,
  field: 'departsUtc' | 'arrivesUtc',
): void {
  for (const f of ['from', 'to', 'reference'] as const)
    if (typeof input[f] === 'string' && input[f]!.trim() === '') errors.add(f, `The ${f} cannot be blank.`);
  if (utc(arrives) <= utc(departs)) errors.add(field, 'The arrival must come after the departure.');
}
