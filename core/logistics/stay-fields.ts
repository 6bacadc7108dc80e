// What a stay is made of, for requesting and changing one: nights as dates (check-out after
// check-in), and the hotel and room once it is assigned.
import * as v from 'valibot';
import type { StayRow } from '../../db/schema';
import type { FieldErrors } from '../platform/field-errors';
import { oneLine } from '../platform/schemas';

const isoDate = (description: string) => v.pipe(v.string(), v.isoDate(), v.description(description));
const place = (description: string) =>
  v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200), v.description(description));

export const stayFields = {
  checkInDate: isoDate('First night (YYYY-MM-DD).'),
  checkOutDate: isoDate('Day of leaving (YYYY-MM-DD), after the first night.'),
  hotel: place('The hotel.'),
  room: place('The room (number or kind).'),
};

/** Check-out after check-in, with the stored date standing in for one not sent. */
export function checkNights(checkIn: string, checkOut: string, errors: FieldErrors, field = 'checkOutDate') {
  if (checkOut <= checkIn) errors.add(field, 'The day of leaving must come after the first night.');
}

/** A hotel or room given must say something. */
function checkPlaces(input: { hotel?: string | null; room?: string | null }, errors: FieldErrors) {
  for (const field of ['hotel', 'room'] as const)
    if (typeof input[field] === 'string' && input[field]!.trim() === '')
      errors.add(field, `The ${field} cannot be blank.`);
}

/**
 * The fields a change of a stay sends (assigning it or changing it), checked against the stay as
 * stored: no blank hotel or room, and nights that still end after they begin.
 */
export function checkStayChange(
  input: { checkInDate?: string; checkOutDate?: string; hotel?: string | null; room?: string | null },
  stay: Pick<StayRow, 'check_in_date' | 'check_out_date'>,
  errors: FieldErrors,
): void {
  checkPlaces(input, errors);
  checkNights(
    input.checkInDate ?? stay.check_in_date,
    input.checkOutDate ?? stay.check_out_date,
    errors,
    input.checkOutDate === undefined ? 'checkInDate' : 'checkOutDate',
  );
}
