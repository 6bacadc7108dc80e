// Sample doors of each kind (entrances, a session door needing an add-on, an area for one ticket
// type without re-entry) and, at the past event, the scans of its days: admissions, some going
// out and back in, some offline, some refused. Presence, inside counts and first check-ins match.
import type { Db } from '../connect';
import { later } from '../dialect';
import { nextChangeSeq } from '../sequence';
import {
  type DoorKind,
  type Flag,
  type ScanDirection,
  type ScanResult,
  type SessionKind,
  toFlag,
} from '../values';
import type { SampleContext } from './context';
import { SampleRandom } from './random';

interface DoorSpec {
  key: string;
  name: string;
  kind: DoorKind;
  main?: boolean;
  capacity?: number;
  reentry?: boolean;
  ticketTypes?: string[];
  addOns?: string[];
  sessionKind?: SessionKind;
}

const doorsByEvent: Record<string, DoorSpec[]> = {
  summit: [
    { key: 'main', name: 'Main entrance', kind: 'entrance', main: true },
    { key: 'side', name: 'Side entrance (Munkedamsveien)', kind: 'entrance' },
    {
      key: 'workshop',
      name: 'Workshop room door',
      kind: 'session',
      capacity: 30,
      addOns: ['workshop'],
      sessionKind: 'workshop',
    },
    { key: 'vip', name: 'VIP lounge', kind: 'area', capacity: 25, reentry: false, ticketTypes: ['vip'] },
  ],
  meetup: [{ key: 'main', name: 'Entrance', kind: 'entrance', main: true, capacity: 90 }],
  forum: [{ key: 'main', name: 'Ballroom entrance', kind: 'entrance', main: true }],
  past: [
    { key: 'main', name: 'Main gate', kind: 'entrance', main: true },
    { key: 'tour', name: 'Studio tour meeting point', kind: 'area', capacity: 40, addOns: ['tour'] },
  ],
};

export async function insertSampleDoors(db: Db, sample: SampleContext): Promise<void> {
  const created = new Date(sample.day0.getTime() - 30 * 86_400_000).toISOString();
  for (const [eventKey, doors] of Object.entries(doorsByEvent)) {
    const eventId = sample.id(`event/${eventKey}`);
    for (const [i, d] of doors.entries()) {
      const session = d.sessionKind
        ? await db
            .selectFrom('sessions')
            .select('id')
            .where('event_id', '=', eventId)
            .where('kind', '=', d.sessionKind)
            .orderBy('starts_utc')
            .executeTakeFirst()
        : undefined;
      await db
        .insertInto('doors')
        .values({
          id: sample.id(`door/${eventKey}/${d.key}`),
          workspace_id: sample.workspaceId,
          event_id: eventId,
          name: d.name,
          kind: d.kind,
          main: d.main ? 1 : 0,
          session_id: session?.id ?? null,
          capacity: d.capacity ?? null,
          inside: 0,
          reentry: d.reentry === false ? 0 : 1,
          ticket_type_ids: JSON.stringify(
            (d.ticketTypes ?? []).map((k) => sample.id(`tickettype/${eventKey}/${k}`)),
          ),
          add_on_ids: JSON.stringify((d.addOns ?? []).map((k) => sample.id(`addon/${eventKey}/${k}`))),
          sort_order: i + 1,
          created_utc: created,
          updated_utc: created,
          change_seq: await nextChangeSeq(db),
        })
        .execute();
    }
  }
  await insertPastScans(db, sample);
}

/** The past event's gate: most valid tickets scanned in, some went out and came back, a few refused. */
async function insertPastScans(db: Db, sample: SampleContext): Promise<void> {
  const random = new SampleRandom(4242);
  const eventId = sample.id('event/past');
  const doorId = sample.id('door/past/main');
  const event = await db
    .selectFrom('events')
    .select('starts_utc')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const attendees = await db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .select(['attendees.id', 'attendees.status', 'orders.status as order_status'])
    .where('attendees.event_id', '=', eventId)
    .orderBy('attendees.id')
    .execute();
  const start = Date.parse(event.starts_utc);
  let inside = 0;
  for (const a of attendees) {
    const valid = a.status === 'active' && (a.order_status === 'paid' || a.order_status === 'free');
    const at = new Date(start - 30 * 60_000 + random.int(0, 240) * 60_000).toISOString();
    const offline = toFlag(random.next() < 0.15);
    const scan = (result: ScanResult, admitted: Flag, direction: ScanDirection, when: string) =>
      db
        .insertInto('check_ins')
        .values({
          workspace_id: sample.workspaceId,
          event_id: eventId,
          attendee_id: a.id,
          door_id: doorId,
          direction,
          result,
          admitted,
          scanned_utc: when,
          offline,
          recorded_utc: offline ? new Date(Date.parse(when) + 45 * 60_000).toISOString() : when,
        })
        .execute();
    if (!valid) {
      if (random.next() < 0.3) await scan(a.status === 'cancelled' ? 'cancelled' : 'unpaid', 0, 'in', at);
      continue;
    }
    if (random.next() < 0.12) continue; // a no-show
    await scan('welcome', 1, 'in', at);
    let isInside: Flag = 1;
    if (random.next() < 0.2) {
      const out = new Date(Date.parse(at) + random.int(30, 180) * 60_000).toISOString();
      await scan('out', 0, 'out', out);
      isInside = 0;
      if (random.next() < 0.6) {
        await scan('again', 1, 'in', new Date(Date.parse(out) + random.int(10, 60) * 60_000).toISOString());
        isInside = 1;
      }
    }
    inside += isInside;
    await db
      .insertInto('door_presence')
      .values({ door_id: doorId, attendee_id: a.id, inside: isInside, first_in_utc: at, last_scan_utc: at })
      .execute();
    await db
      .updateTable('attendees')
      .set((eb) => ({
        checked_in_utc: at,
        updated_utc: later(eb.ref('updated_utc'), eb.val(at)),
      }))
      .where('id', '=', a.id)
      .execute();
  }
  await db.updateTable('doors').set({ inside }).where('id', '=', doorId).execute();
}
