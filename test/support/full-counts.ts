// The event statistics and check-in summary counted the old way, from every row of the event, to
// hold the totals the triggers keep (migration 0033) against.
import { admittedResults } from '../../core/checkin/check-in-view';
import { awaitingPaymentStatuses, orderStatuses, validOrderStatuses } from '../../core/sales/order-status';
import type { Db } from '../../db/connect';

export async function fullStats(db: Db, eventId: string) {
  const tickets = await db
    .selectFrom('attendees')
    .innerJoin('orders', 'orders.id', 'attendees.order_id')
    .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
    .select([
      'attendees.status',
      'attendees.checked_in_utc',
      'orders.status as order_status',
      'ticket_types.crew',
    ])
    .where('attendees.event_id', '=', eventId)
    .execute();
  const valid = (t: (typeof tickets)[number]) =>
    t.status === 'active' && validOrderStatuses.includes(t.order_status);
  const registered = tickets.filter((t) => valid(t) && Number(t.crew) === 0);
  const orders = await db
    .selectFrom('orders')
    .select(['status', 'total_minor'])
    .where('event_id', '=', eventId)
    .execute();
  const byStatus = Object.fromEntries(
    orderStatuses.map((s) => [s, orders.filter((o) => o.status === s).length]),
  );
  const paidMinor = orders.filter((o) => o.status === 'paid').reduce((n, o) => n + Number(o.total_minor), 0);
  return {
    registered: registered.length,
    checkedIn: registered.filter((t) => t.checked_in_utc !== null).length,
    crew: tickets.filter((t) => valid(t) && Number(t.crew) === 1).length,
    awaiting: tickets.filter((t) => t.status === 'active' && awaitingPaymentStatuses.includes(t.order_status))
      .length,
    cancelled: tickets.filter((t) => t.status === 'cancelled').length,
    orders: { total: orders.length, byStatus },
    paidMinor,
  };
}

export async function fullSummary(db: Db, eventId: string, now: Date) {
  const { registered, checkedIn } = await fullStats(db, eventId);
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  const doors = await db.selectFrom('doors').select(['id', 'kind']).where('event_id', '=', eventId).execute();
  const presence = await db
    .selectFrom('door_presence')
    .select(['door_id', 'inside'])
    .where('door_id', 'in', doors.map((d) => d.id).concat(['none']))
    .execute();
  const scans = await db.selectFrom('check_ins').selectAll().where('event_id', '=', eventId).execute();
  const recent = scans.filter(
    (s) => (admittedResults as readonly string[]).includes(s.result) && s.scanned_utc >= hourAgo,
  );
  const entrances = new Set(doors.filter((d) => d.kind === 'entrance').map((d) => d.id));
  return {
    registered,
    checkedIn,
    lastHour: new Set(recent.filter((s) => entrances.has(s.door_id)).map((s) => s.attendee_id)).size,
    doors: Object.fromEntries(
      doors.map((d) => [
        d.id,
        {
          admitted: presence.filter((p) => p.door_id === d.id).length,
          inside: presence.filter((p) => p.door_id === d.id && Number(p.inside) === 1).length,
          refused: scans.filter((s) => s.door_id === d.id && Number(s.admitted) === 0 && s.direction === 'in')
            .length,
          lastHour: new Set(recent.filter((s) => s.door_id === d.id).map((s) => s.attendee_id)).size,
        },
      ]),
    ),
  };
}
