import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, int32, uuid } from '../platform/schemas';
import { countRegistered } from '../sales';
import { insideByDoor } from './door-inside';
import { doorTotals } from './door-totals';
import { doorKinds } from './door-view';
import { loadEventDoors } from './load-door';
import { recentAdmissions } from './recent-admissions';

export const checkInSummarySchema = v.object({
  eventId: uuid('The event id.'),
  registered: int32('Valid tickets, crew left out.'),
  checkedIn: int32('Of whom checked in at the main entrance.'),
  notYet: int32('Registered and not yet checked in.'),
  rate: v.nullable(
    v.pipe(v.number(), v.description('Checked in as a percentage of registered; null with none registered.')),
  ),
  lastHour: int32('People let in at an entrance in the last hour, each once.'),
  doors: v.array(
    v.object({
      doorId: uuid('The door.'),
      name: v.string(),
      kind: v.picklist(doorKinds),
      sessionId: v.nullable(uuid('Session of the door.')),
      capacity: v.nullable(int32('How many may be inside at once.')),
      admitted: int32('People let in, each once.'),
      inside: int32('In and not out again.'),
      lastHour: int32('People let in during the last hour, each once.'),
      refused: int32('Scans refused.'),
    }),
  ),
  atUtc: dateTime('When counted.'),
});

export const getCheckInSummary = defineOperation({
  name: 'getCheckInSummary',
  title: 'Check-in summary',
  description:
    'Counts at the doors now: checked in, not yet, last hour, and per door admitted and inside. Needs checkins:read.',
  scope: 'checkins:read',
  effect: 'read',
  module: 'checkin',
  doors: true,
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: checkInSummarySchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const now = ctx.clock.now();
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    const { registered, checkedIn } = await countRegistered(ctx, event.id);
    const doors = await loadEventDoors(ctx, event.id);
    const totals = await doorTotals(ctx, event.id);
    const inside = await insideByDoor(ctx.db, event.id);
    const recent = await recentAdmissions(ctx.db, event.id, hourAgo).execute();
    const lastHourBy = new Map<string, number>();
    for (const r of recent) lastHourBy.set(r.door_id, (lastHourBy.get(r.door_id) ?? 0) + 1);
    const lastHourAtEntrances = new Set(recent.filter((r) => r.kind === 'entrance').map((r) => r.attendee_id))
      .size;
    const doorCounts = doors.map((d) => ({
      doorId: d.id,
      name: d.name,
      kind: d.kind,
      sessionId: d.session_id,
      capacity: d.capacity,
      admitted: totals.get(d.id)?.admitted ?? 0,
      inside: inside.get(d.id) ?? 0,
      lastHour: lastHourBy.get(d.id) ?? 0,
      refused: totals.get(d.id)?.refused ?? 0,
    }));
    return {
      eventId: event.id,
      registered,
      checkedIn,
      notYet: Math.max(0, registered - checkedIn),
      rate: registered === 0 ? null : Math.round((checkedIn / registered) * 1000) / 10,
      lastHour: lastHourAtEntrances,
      doors: doorCounts,
      atUtc: now.toISOString(),
    };
  },
});
