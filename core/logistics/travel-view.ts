// The Travel resource: a journey booked for a speaker or crew member, as the API shows it and as
// travel.changed carries it (unredacted there: the dispatcher redacts per subscriber).
import * as v from 'valibot';
import type { TravelRow } from '../../db/schema';
import { travelModes, travelStatuses } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { linkedPeople, whoForViewEntries } from './who-for';

export const travelPersonal = declarePersonal({
  resource: 'travel',
  idField: 'travelId',
  table: 'travel',
  countedAs: 'journey',
  fields: { firstName: 'first_name', lastName: 'last_name', reference: 'reference' },
  storedOnly: ['email'],
  emailColumn: 'email',
  linkColumns: linkedPeople,
});

/** A journey booked for a speaker or crew member. */
export const travelSchema = v.object({
  travelId: uuid('The travel id.'),
  ...whoForViewEntries,
  status: v.pipe(
    v.picklist(travelStatuses),
    v.description('booked, or cancelled (kept, so receivers learn it).'),
  ),
  mode: v.picklist(travelModes),
  from: text('Where it starts.'),
  to: text('Where it ends.'),
  departsUtc: dateTime('Departure.'),
  arrivesUtc: dateTime('Arrival.'),
  reference: v.nullable(text('Booking reference. Personal data.')),
  updatedUtc: dateTime('Last change.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

/** A journey as a caller reads it, or unredacted as its messages carry it. */
export function travelView(
  row: TravelRow,
  reader: Reader = 'unredacted',
): v.InferOutput<typeof travelSchema> {
  return applyPersonalData(
    reader,
    {
      travelId: row.id,
      speakerId: row.speaker_id,
      crewMemberId: row.crew_member_id,
      firstName: row.first_name,
      lastName: row.last_name,
      status: row.status,
      mode: row.mode,
      from: row.from_place,
      to: row.to_place,
      departsUtc: row.departs_utc,
      arrivesUtc: row.arrives_utc,
      reference: row.reference,
      updatedUtc: row.updated_utc,
    },
    travelPersonal,
    row.erased === 1,
  );
}
