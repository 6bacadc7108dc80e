import * as v from 'valibot';
import { attendeeQuery } from '../attendees/attendee-view';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, uuid } from '../platform/schemas';
import { refusals } from './check-in-view';
import { loadEventDoors, mainEntrance } from './load-door';
import { applyScan } from './scanner';

export const maxOfflineScans = 500;

export const offlineScanSchema = v.object({
  scanId: v.optional(
    v.pipe(v.string(), v.maxLength(100), v.description("The scanner's own id, echoed back.")),
  ),
  attendeeId: uuid('The attendee id.'),
  doorId: v.optional(uuid('Default: the main entrance.')),
  direction: v.optional(v.pipe(v.picklist(['in', 'out']), v.description('in (default) or out.'))),
  scannedUtc: dateTime('When the ticket was read.'),
});

export const scanAnswerSchema = v.object({
  scanId: v.nullable(v.string()),
  attendeeId: uuid('The attendee scanned.'),
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
    "Applies scans made offline, in scan order and by check_in_attendee's rules; one answer per scan. Needs checkins:write.",
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

    const answers: ScanAnswer[] = new Array(input.scans.length);
    for (const { scan, index, at } of order) {
      const base = { scanId: scan.scanId ?? null, attendeeId: scan.attendeeId };
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
      const attendee = await attendeeQuery(ctx.db)
        .where('attendees.id', '=', scan.attendeeId)
        .where('attendees.event_id', '=', event.id)
        .executeTakeFirst();
      if (!attendee) {
        answers[index] = {
          ...base,
          result: null,
          admitted: false,
          checkInId: null,
          error: { code: 'attendeeNotFound', detail: `No attendee ${scan.attendeeId} at this event.` },
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
