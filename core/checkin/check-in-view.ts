// The public CheckIn resource (a door scan that let someone in or out).
import * as v from 'valibot';
import type { CheckInRow, DoorRow } from '../../db/schema';
import { doorKinds, type ScanResult, scanDirections } from '../../db/values';
import { dateTime, uuid } from '../platform/schemas';

export const admittedResults = ['welcome', 'again'] as const;
export const listedResults = ['welcome', 'again', 'out'] as const;
export const refusals = ['cancelled', 'unpaid', 'notOnList', 'noAddOn', 'full', 'noReentry'] as const;
export type { ScanResult };

export const checkInSchema = v.object({
  checkInId: v.pipe(v.number(), v.integer(), v.description('Only grows; pass the last one held as after.')),
  eventId: uuid('The event id.'),
  attendeeId: uuid('The attendee scanned.'),
  checkInListId: uuid("The door's id."),
  listName: v.pipe(v.string(), v.description("The door's name.")),
  listKind: v.pipe(v.picklist(doorKinds), v.description('entrance, session or area.')),
  sessionId: v.nullable(uuid('Session of the door; null for entrances and areas.')),
  direction: v.pipe(v.picklist(scanDirections), v.description('in or out.')),
  result: v.pipe(v.picklist(listedResults), v.description('welcome (first time), again, or out.')),
  scannedUtc: dateTime('When the scanner read the ticket.'),
  offline: v.pipe(
    v.boolean(),
    v.description('Whether the scanner was offline (the scan was uploaded later).'),
  ),
});

export type CheckInView = v.InferOutput<typeof checkInSchema>;

export function checkInView(
  row: CheckInRow,
  door: Pick<DoorRow, 'name' | 'kind' | 'session_id'>,
): CheckInView {
  return {
    checkInId: row.id,
    eventId: row.event_id,
    attendeeId: row.attendee_id,
    checkInListId: row.door_id,
    listName: door.name,
    listKind: door.kind,
    sessionId: door.session_id,
    direction: row.direction,
    // Only scans that let someone in or out are listed (the list's query says so).
    result: row.result as CheckInView['result'],
    scannedUtc: row.scanned_utc,
    offline: row.offline === 1,
  };
}
