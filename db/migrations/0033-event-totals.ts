// Event statistics and the check-in summary from totals (issue 29), not from counting the event on
// every call. Triggers keep the totals in the writer's transaction, so no writer can forget one:
// registration, payment and status changes, cancellation, refund, transfer, scans (online and
// uploaded), import, erasure and deletion all change the rows the triggers watch.
// - ticket_totals: tickets by (attendee status, order status, crew, checked in).
// - order_totals: orders and their amounts by status.
// - door_totals: people let in (door_presence rows) and refused scans, per door.
// The hot rows are spread over slots on PostgreSQL (db/row-triggers.ts); readers sum them. A total
// goes with its event or door (foreign key, cascade); a trigger on a row removed with its event or
// door adds nothing (its parent is already gone).
// The last hour's figures stay queries, bounded to that hour by the index check_ins_event_scanned.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { addToTotals, createRowTrigger, totalsSlot } from '../row-triggers';

const ticketKeys = ['event_id', 'attendee_status', 'order_status', 'crew', 'checked_in', 'slot'];
const orderKeys = ['event_id', 'status', 'slot'];
const doorKeys = ['door_id', 'slot'];

const checkedIn = (row: string) => `CASE WHEN ${row}.checked_in_utc IS NULL THEN 0 ELSE 1 END`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ticket_totals')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('attendee_status', 'text', (c) => c.notNull())
    .addColumn('order_status', 'text', (c) => c.notNull())
    .addColumn('crew', 'integer', (c) => c.notNull())
    .addColumn('checked_in', 'integer', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_totals_pk', ticketKeys as any)
    .execute();
  await db.schema
    .createTable('order_totals')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_totals_pk', orderKeys as any)
    .execute();
  await db.schema
    .createTable('door_totals')
    .addColumn('door_id', 'text', (c) => c.notNull().references('doors.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('admitted', 'integer', (c) => c.notNull())
    .addColumn('refused', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('door_totals_pk', doorKeys as any)
    .execute();
  await db.schema
    .createIndex('check_ins_event_scanned')
    .on('check_ins')
    .columns(['event_id', 'scanned_utc'])
    .execute();
  await fill(db);
  await ticketTriggers(db);
  await orderTriggers(db);
  await doorTriggers(db);
}

/** The totals of the rows there already, in slot 0. */
async function fill(db: Kysely<any>): Promise<void> {
  await sql
    .raw(`INSERT INTO ticket_totals (${ticketKeys.join(', ')}, n)
      SELECT a.event_id, a.status, o.status, t.crew, ${checkedIn('a')}, 0, COUNT(*)
      FROM attendees a JOIN orders o ON o.id = a.order_id JOIN ticket_types t ON t.id = a.ticket_type_id
      GROUP BY a.event_id, a.status, o.status, t.crew, ${checkedIn('a')}`)
    .execute(db);
  await sql
    .raw(`INSERT INTO order_totals (${orderKeys.join(', ')}, n, total_minor)
      SELECT event_id, status, 0, COUNT(*), SUM(total_minor) FROM orders GROUP BY event_id, status`)
    .execute(db);
  await sql
    .raw(`INSERT INTO door_totals (${doorKeys.join(', ')}, admitted, refused)
      SELECT d.id, 0,
        (SELECT COUNT(*) FROM door_presence p WHERE p.door_id = d.id),
        (SELECT COUNT(*) FROM check_ins c WHERE c.door_id = d.id AND c.admitted = 0 AND c.direction = 'in')
      FROM doors d`)
    .execute(db);
}

async function ticketTriggers(db: Kysely<any>): Promise<void> {
  const slot = totalsSlot(db);
  const add = (select: string) => addToTotals('ticket_totals', ticketKeys, ['n'], select);
  // One ticket, counted with its order's status and its type's crew flag as they are now.
  const ticket = (row: 'NEW' | 'OLD', sign: string, guard = '') =>
    add(`SELECT ${row}.event_id, ${row}.status, o.status, t.crew, ${checkedIn(row)}, ${slot}, ${sign}
      FROM orders o, ticket_types t WHERE o.id = ${row}.order_id AND t.id = ${row}.ticket_type_id ${guard}`);
  const eventStands = 'AND EXISTS (SELECT 1 FROM events e WHERE e.id = OLD.event_id)';
  await createRowTrigger(db, {
    name: 'ticket_totals_issued',
    when: 'AFTER INSERT ON attendees',
    statements: [ticket('NEW', '1')],
  });
  await createRowTrigger(db, {
    name: 'ticket_totals_changed',
    when: 'AFTER UPDATE OF status, checked_in_utc, order_id, ticket_type_id ON attendees',
    condition: `OLD.status <> NEW.status OR OLD.order_id <> NEW.order_id OR OLD.ticket_type_id <> NEW.ticket_type_id
      OR ${checkedIn('OLD')} <> ${checkedIn('NEW')}`,
    statements: [ticket('OLD', '-1'), ticket('NEW', '1')],
  });
  await createRowTrigger(db, {
    name: 'ticket_totals_removed',
    when: 'AFTER DELETE ON attendees',
    statements: [ticket('OLD', '-1', eventStands)],
  });
  // An order's tickets move with its status; a type's with its crew flag.
  const orderTickets = (status: string, sign: string) =>
    add(`SELECT a.event_id, a.status, ${status}, t.crew, ${checkedIn('a')}, ${slot}, ${sign}COUNT(*)
      FROM attendees a, ticket_types t WHERE a.order_id = NEW.id AND t.id = a.ticket_type_id
      GROUP BY a.event_id, a.status, t.crew, ${checkedIn('a')}`);
  await createRowTrigger(db, {
    name: 'ticket_totals_order_status',
    when: 'AFTER UPDATE OF status ON orders',
    condition: 'OLD.status <> NEW.status',
    statements: [orderTickets('OLD.status', '-'), orderTickets('NEW.status', '')],
  });
  const typeTickets = (crew: string, sign: string) =>
    add(`SELECT a.event_id, a.status, o.status, ${crew}, ${checkedIn('a')}, ${slot}, ${sign}COUNT(*)
      FROM attendees a, orders o WHERE a.ticket_type_id = NEW.id AND o.id = a.order_id
      GROUP BY a.event_id, a.status, o.status, ${checkedIn('a')}`);
  await createRowTrigger(db, {
    name: 'ticket_totals_type_crew',
    when: 'AFTER UPDATE OF crew ON ticket_types',
    condition: 'OLD.crew <> NEW.crew',
    statements: [typeTickets('OLD.crew', '-'), typeTickets('NEW.crew', '')],
  });
}

async function orderTriggers(db: Kysely<any>): Promise<void> {
  const slot = totalsSlot(db);
  const order = (row: 'NEW' | 'OLD', sign: string, guard = 'WHERE 1 = 1') =>
    addToTotals(
      'order_totals',
      orderKeys,
      ['n', 'total_minor'],
      `SELECT ${row}.event_id, ${row}.status, ${slot}, ${sign}1, ${sign}${row}.total_minor ${guard}`,
    );
  await createRowTrigger(db, {
    name: 'order_totals_placed',
    when: 'AFTER INSERT ON orders',
    statements: [order('NEW', '')],
  });
  await createRowTrigger(db, {
    name: 'order_totals_changed',
    when: 'AFTER UPDATE OF status, total_minor ON orders',
    condition: 'OLD.status <> NEW.status OR OLD.total_minor <> NEW.total_minor',
    statements: [order('OLD', '-'), order('NEW', '')],
  });
  await createRowTrigger(db, {
    name: 'order_totals_removed',
    when: 'AFTER DELETE ON orders',
    statements: [order('OLD', '-', 'WHERE EXISTS (SELECT 1 FROM events e WHERE e.id = OLD.event_id)')],
  });
}

async function doorTriggers(db: Kysely<any>): Promise<void> {
  const slot = totalsSlot(db);
  const add = (door: string, admitted: string, refused: string, where: string) =>
    addToTotals(
      'door_totals',
      doorKeys,
      ['admitted', 'refused'],
      `SELECT ${door}, ${slot}, ${admitted}, ${refused} WHERE ${where}`,
    );
  const doorStands = (door: string) => `EXISTS (SELECT 1 FROM doors d WHERE d.id = ${door})`;
  const refused = (row: string) => `${row}.admitted = 0 AND ${row}.direction = 'in'`;
  await createRowTrigger(db, {
    name: 'door_totals_let_in',
    when: 'AFTER INSERT ON door_presence',
    statements: [add('NEW.door_id', '1', '0', '1 = 1')],
  });
  await createRowTrigger(db, {
    name: 'door_totals_presence_moved',
    when: 'AFTER UPDATE OF door_id ON door_presence',
    condition: 'OLD.door_id <> NEW.door_id',
    statements: [
      add('OLD.door_id', '-1', '0', doorStands('OLD.door_id')),
      add('NEW.door_id', '1', '0', '1 = 1'),
    ],
  });
  await createRowTrigger(db, {
    name: 'door_totals_presence_removed',
    when: 'AFTER DELETE ON door_presence',
    statements: [add('OLD.door_id', '-1', '0', doorStands('OLD.door_id'))],
  });
  await createRowTrigger(db, {
    name: 'door_totals_refused',
    when: 'AFTER INSERT ON check_ins',
    condition: refused('NEW'),
    statements: [add('NEW.door_id', '0', '1', '1 = 1')],
  });
  await createRowTrigger(db, {
    name: 'door_totals_scan_changed',
    when: 'AFTER UPDATE OF door_id, admitted, direction ON check_ins',
    condition: `(${refused('OLD')}) <> (${refused('NEW')}) OR OLD.door_id <> NEW.door_id`,
    statements: [
      add('OLD.door_id', '0', '-1', `${refused('OLD')} AND ${doorStands('OLD.door_id')}`),
      add('NEW.door_id', '0', '1', refused('NEW')),
    ],
  });
  await createRowTrigger(db, {
    name: 'door_totals_scan_removed',
    when: 'AFTER DELETE ON check_ins',
    condition: refused('OLD'),
    statements: [add('OLD.door_id', '0', '-1', doorStands('OLD.door_id'))],
  });
}
