import * as v from 'valibot';
import { lockingRow } from '../../db/dialect';
import type { DoorRow } from '../../db/schema';
import { attendeeQuery, checkTicketHolder, findAttendeeByCode, ticketHolderFields } from '../attendees';
import type { Ctx } from '../platform/context';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, oneLine, uuid } from '../platform/schemas';
import { ticketCodeIn } from '../platform/ticket-codes';
import { refusals } from './check-in-view';
import { loadEventDoors, mainEntrance } from './load-door';
import { applyScan } from './scanner';

export const maxOfflineScans = 500;

export const offlineScanSchema = v.object({
  scanId: v.optional(
    v.pipe(v.string(), oneLine, v.maxLength(100), v.description("The scanner's own id, echoed back.")),
  ),
  ...ticketHolderFields(
    "The ticket scanned (a code that names no ticket of this event is that scan's attendeeNotFound)",
  ),
  doorId: v.optional(uuid('Default: the main entrance.')),
  direction: v.optional(v.pipe(v.picklist(['in', 'out']), v.description('in (default) or out.'))),
  scannedUtc: dateTime('When the ticket was read.'),
});

export const scanAnswerSchema = v.object({
  scanId: v.nullable(v.string()),
  attendeeId: v.nullable(uuid('The attendee scanned; null when the scan’s ticketCode named no ticket.')),
  result: v.nullable(v.picklist(['welcome', 'again', 'out', ...refusals])),
  admitted: v.boolean(),
  checkInId: v.nullable(v.pipe(v.number(), v.integer())),
  error: v.nullable(v.object({ code: v.picklist(['attendeeNotFound', 'noDoor']), detail: v.string() })),
});
type ScanAnswer = v.InferOutput<typeof scanAnswerSchema>;

export const uploadOfflineScans = defineOperation({
  name: 'uploadOfflineScans',
  title: 'Upload offline scans',
  description:
    "Applies scans made offline, in scan order and by check_in_attendee's rules; one answer per scan. Each scan names its ticket by attendeeId or by the ticketCode the scanner read. Needs checkins:write.",
  scope: 'checkins:write',
  effect: 'write',
  activity: {
    resourceType: 'event',
    resourceId: (input) => input.eventId,
    summary: (input) => `${input.scans.length} scan(s)`,
  },
  module: 'checkin',
  doors: true,
  problems: [],
  idempotent: true,
  ticketCodes: true,
  extension: true,
  input: v.object({
    eventId: uuid('The event id.'),
    scans: v.pipe(
      v.array(offlineScanSchema),
      v.minLength(1),
      v.maxLength(maxOfflineScans),
      v.description('1 to 500.'),
    ),
  }),
  rules(input, errors) {
    // Exactly one way of naming each scan's ticket; a code that is no code is that scan's answer.
    if (!Array.isArray(input.scans)) return;
    input.scans.forEach((scan: unknown, i: number) => {
      if (scan !== null && typeof scan === 'object')
        checkTicketHolder(scan as Record<string, unknown>, errors, `scans.${i}.`, false);
    });
  },
  output: v.object({ data: v.array(scanAnswerSchema) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const doors = new Map((await loadEventDoors(ctx, event.id)).map((d) => [d.id, d]));
    const main = mainEntrance([...doors.values()]);
    const order = input.scans.map((scan, index) => ({
      scan,
      index,
      at: new Date(scan.scannedUtc).toISOString(),
    }));
    order.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.index - b.index));
    await lockDoors(
      ctx,
      input.scans.map((scan) => (scan.doorId === undefined ? main : doors.get(scan.doorId))),
    );

    const answers: ScanAnswer[] = new Array(input.scans.length);
    for (const { scan, index, at } of order) {
      const attendee = await scannedAttendee(ctx, event.id, scan);
      const base = { scanId: scan.scanId ?? null, attendeeId: attendee?.id ?? scan.attendeeId ?? null };
      const door = scan.doorId === undefined ? main : doors.get(scan.doorId);
      if (!door) {
        answers[index] = {
          ...base,
          result: null,
          admitted: false,
          checkInId: null,
          error: { code: 'noDoor', detail: `No door ${scan.doorId ?? '(main entrance)'} at this event.` },
        };
        continue;
      }
      if (!attendee) {
        answers[index] = {
          ...base,
          result: null,
          admitted: false,
          checkInId: null,
          error: {
            code: 'attendeeNotFound',
            detail:
              scan.attendeeId === undefined
                ? 'No ticket of this event has this code.'
                : `No attendee ${scan.attendeeId} at this event.`,
          },
        };
        continue;
      }
      const outcome = await applyScan(ctx, event, door, attendee, {
        direction: scan.direction ?? 'in',
        scannedUtc: at,
        offline: true,
      });
      answers[index] = {
        ...base,
        result: outcome.result,
        admitted: outcome.admitted,
        checkInId: outcome.checkInId,
        error: null,
      };
    }
    return { data: answers };
  },
});

/**
 * Takes the locks of the doors the scans go through at once, in the order of their ids: scans in
 * time order would take them in any order, and two uploads (or an upload and a scan) could wait on
 * each other in a circle. A door's lock comes before its presence rows and the attendees (as in a
 * single scan), so holding them first keeps that order too.
 */
async function lockDoors(ctx: Ctx, doors: (DoorRow | undefined)[]): Promise<void> {
  const ids = [...new Set(doors.flatMap((door) => (door ? [door.id] : [])))].sort();
  if (ids.length === 0) return;
  await lockingRow(
    ctx.db,
    ctx.db.selectFrom('doors').select('id').where('id', 'in', ids).orderBy('id'),
  ).execute();
}

/** The attendee a scan names, by id or by the code read (none for a code that is no code). */
async function scannedAttendee(ctx: Ctx, eventId: string, scan: v.InferOutput<typeof offlineScanSchema>) {
  if (scan.ticketCode === undefined)
    return attendeeQuery(ctx.db)
      .where('attendees.id', '=', scan.attendeeId!)
      .where('attendees.event_id', '=', eventId)
      .executeTakeFirst();
  const code = ticketCodeIn(scan.ticketCode);
  if (code === null) return undefined;
  const found = await findAttendeeByCode(ctx, eventId, code);
  if (!found) ctx.ticketMisses?.add(code);
  return found;
}
