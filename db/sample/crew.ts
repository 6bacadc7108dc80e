// Sample crew: at the summit, eight volunteers in several roles (one holding a ticket of the crew
// ticket type, so made after the sales; one who erased their data) and seven shifts at its doors,
// rooms, an area and elsewhere: some full, some with places open, one with more people than
// needed. At the past event, three volunteers seen there and two shifts. The forum has the crew
// module switched off (events.ts), to show moduleOff. Assigned and open places are never stored:
// they follow from the assignment rows, and a shift's and a member's updated_utc is their last
// sign-up.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { ShiftPlaceKind } from '../values';
import type { SampleContext } from './context';

interface MemberSpec {
  key: string;
  name: string;
  roles: string[];
  phone: string | null;
  /** Days from the sample's day they were invited. */
  invitedDay: number;
  /** Days from the sample's day they were last seen at the event. */
  lastSeenDay?: number;
  /** Holds a ticket of the event's crew ticket type (their name and email are the ticket's). */
  ticket?: boolean;
  erased?: boolean;
}

interface ShiftSpec {
  key: string;
  role: string;
  kind: ShiftPlaceKind;
  /** A door or room of the event, by its sample key. */
  door?: string;
  room?: string;
  placeName?: string;
  /** Day from the event's first day, and UTC hours. */
  day: number;
  from: number;
  to: number;
  needed: number;
  /** Members on it, in the order they signed up. */
  crew: string[];
}

interface EventCrew {
  event: string;
  startDay: number;
  /** Days from the sample's day the shifts were made; sign-ups follow five days later. */
  shiftsDay: number;
  members: MemberSpec[];
  shifts: ShiftSpec[];
}

const plans: EventCrew[] = [
  {
    event: 'summit',
    startDay: 45,
    shiftsDay: -19,
    members: [
      {
        key: 'ticket',
        name: 'Solveig Haugen',
        roles: ['door', 'infoDesk'],
        phone: '+47 412 34 501',
        invitedDay: -50,
        ticket: true,
      },
      { key: 'henrik', name: 'Henrik Bakke', roles: ['door'], phone: '+47 412 34 502', invitedDay: -48 },
      { key: 'tuva', name: 'Tuva Lie', roles: ['room'], phone: '+47 412 34 503', invitedDay: -45 },
      {
        key: 'magnus',
        name: 'Magnus Aas',
        roles: ['room', 'greeter'],
        phone: '+47 412 34 504',
        invitedDay: -40,
      },
      { key: 'sigrid', name: 'Sigrid Vik', roles: ['greeter', 'door'], phone: null, invitedDay: -30 },
      { key: 'oskar', name: 'Oskar Brekke', roles: ['swag'], phone: '+47 412 34 506', invitedDay: -25 },
      {
        key: 'ingeborg',
        name: 'Ingeborg Sand',
        roles: ['infoDesk', 'swag'],
        phone: '+47 412 34 507',
        invitedDay: -20,
      },
      {
        key: 'erased',
        name: 'Former Volunteer',
        roles: ['door'],
        phone: '+47 412 34 508',
        invitedDay: -35,
        erased: true,
      },
    ],
    shifts: [
      {
        key: 'swag',
        role: 'swag',
        kind: 'other',
        placeName: 'Cloakroom storage',
        day: -1,
        from: 13,
        to: 17,
        needed: 4,
        crew: ['oskar', 'ingeborg'],
      },
      {
        key: 'main-door',
        role: 'door',
        kind: 'door',
        door: 'main',
        day: 0,
        from: 6,
        to: 10,
        needed: 3,
        crew: ['henrik', 'sigrid', 'erased'],
      },
      {
        key: 'side-door',
        role: 'door',
        kind: 'door',
        door: 'side',
        day: 0,
        from: 6,
        to: 10,
        needed: 2,
        crew: ['ticket'],
      },
      {
        key: 'main-hall',
        role: 'room',
        kind: 'room',
        room: 'main',
        day: 0,
        from: 7,
        to: 12,
        needed: 2,
        crew: ['tuva', 'magnus'],
      },
      {
        key: 'info-desk',
        role: 'infoDesk',
        kind: 'area',
        placeName: 'Foyer',
        day: 0,
        from: 10,
        to: 16,
        needed: 1,
        crew: ['ingeborg', 'ticket'],
      },
      {
        key: 'vip',
        role: 'greeter',
        kind: 'door',
        door: 'vip',
        day: 0,
        from: 16,
        to: 19,
        needed: 1,
        crew: [],
      },
      {
        key: 'studio',
        role: 'room',
        kind: 'room',
        room: 'studio',
        day: 1,
        from: 7,
        to: 12,
        needed: 2,
        crew: ['magnus'],
      },
    ],
  },
  {
    event: 'past',
    startDay: -30,
    shiftsDay: -55,
    members: [
      {
        key: 'beatriz',
        name: 'Beatriz Lopes',
        roles: ['door'],
        phone: '+351 912 000 101',
        invitedDay: -70,
        lastSeenDay: -28,
      },
      {
        key: 'tiago',
        name: 'Tiago Matos',
        roles: ['door', 'greeter'],
        phone: '+351 912 000 102',
        invitedDay: -65,
        lastSeenDay: -30,
      },
      { key: 'rita', name: 'Rita Neves', roles: ['room'], phone: null, invitedDay: -60 },
    ],
    shifts: [
      {
        key: 'gate',
        role: 'door',
        kind: 'door',
        door: 'main',
        day: 0,
        from: 8,
        to: 12,
        needed: 2,
        crew: ['beatriz', 'tiago'],
      },
      {
        key: 'tour',
        role: 'greeter',
        kind: 'area',
        placeName: 'Studio tour meeting point',
        day: 2,
        from: 13,
        to: 15,
        needed: 2,
        crew: ['beatriz'],
      },
    ],
  },
];

function emailOf(name: string): string {
  return `${name.toLowerCase().replace(' ', '.')}.crew@example.com`;
}

export async function insertSampleCrew(db: Db, sample: SampleContext): Promise<void> {
  const at = (day: number, hours: number) =>
    new Date(sample.day0.getTime() + day * 86_400_000 + hours * 3_600_000).toISOString();
  for (const plan of plans) {
    const eventId = sample.id(`event/${plan.event}`);
    const memberId = (key: string) => sample.id(`crew/${plan.event}/${key}`);
    const shiftId = (key: string) => sample.id(`shift/${plan.event}/${key}`);
    const tickets = await crewTickets(db, eventId, sample.id(`tickettype/${plan.event}/crew`));
    // Sign-ups in the order of the plan, one an hour, after everyone was invited.
    const signUps: { shift: ShiftSpec; member: string; at: string }[] = [];
    for (const shift of plan.shifts)
      for (const member of shift.crew)
        signUps.push({ shift, member, at: at(plan.shiftsDay + 5, signUps.length + 8) });
    // Sign-ups are made in time order: the last one that matches is the latest.
    const lastSignUp = (match: (s: (typeof signUps)[number]) => boolean, since: string) =>
      signUps.filter(match).at(-1)?.at ?? since;

    for (const m of plan.members) {
      const ticket = m.ticket ? tickets.shift() : undefined;
      const invited = at(m.invitedDay, 9);
      await db
        .insertInto('crew_members')
        .values({
          id: memberId(m.key),
          workspace_id: sample.workspaceId,
          event_id: eventId,
          name: m.erased ? null : (ticket?.name ?? m.name),
          email: m.erased ? null : (ticket?.email ?? emailOf(m.name)),
          phone: m.erased ? null : m.phone,
          roles: JSON.stringify(m.roles),
          attendee_id: ticket?.id ?? null,
          invited_utc: invited,
          last_seen_utc: m.lastSeenDay === undefined ? null : at(m.lastSeenDay, 15),
          erased: m.erased ? 1 : 0,
          created_utc: invited,
          updated_utc: lastSignUp((s) => s.member === m.key, invited),
          change_seq: await nextChangeSeq(db),
        })
        .execute();
    }
    for (const s of plan.shifts) {
      const created = at(plan.shiftsDay, 9);
      await db
        .insertInto('shifts')
        .values({
          id: shiftId(s.key),
          workspace_id: sample.workspaceId,
          event_id: eventId,
          role: s.role,
          place_kind: s.kind,
          place_id: s.door
            ? sample.id(`door/${plan.event}/${s.door}`)
            : s.room
              ? sample.id(`room/${plan.event}/${s.room}`)
              : null,
          place_name: s.placeName ?? null,
          starts_utc: at(plan.startDay + s.day, s.from),
          ends_utc: at(plan.startDay + s.day, s.to),
          needed: s.needed,
          created_utc: created,
          updated_utc: lastSignUp((x) => x.shift === s, created),
          change_seq: await nextChangeSeq(db),
        })
        .execute();
    }
    for (const s of signUps)
      await db
        .insertInto('shift_assignments')
        .values({ shift_id: shiftId(s.shift.key), crew_member_id: memberId(s.member), created_utc: s.at })
        .execute();
  }
}

/**
 * The event's valid tickets of its crew ticket type (none when it has no such type), in id order.
 * Named by its event too, whose index finds its few tickets: no index has the ticket type, and the
 * first start of a deployment with a large event of its own must not read that event (issue 29).
 */
export function crewTicketsQuery(db: Db, eventId: string, ticketTypeId: string) {
  return db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .select(['attendees.id', 'attendees.first_name', 'attendees.last_name', 'attendees.email'])
    .where('attendees.event_id', '=', eventId)
    .where('attendees.ticket_type_id', '=', ticketTypeId)
    .where('attendees.status', '=', 'active')
    .where('orders.status', 'in', ['paid', 'free'])
    .where('attendees.erased', '=', 0)
    .orderBy('attendees.id');
}

async function crewTickets(
  db: Db,
  eventId: string,
  ticketTypeId: string,
): Promise<{ id: string; name: string | null; email: string | null }[]> {
  const rows = await crewTicketsQuery(db, eventId, ticketTypeId).execute();
  return rows.map((r) => ({ id: r.id, name: `${r.first_name} ${r.last_name}`, email: r.email }));
}
