// PostgreSQL: the tickets one insert issues are added to ticket_totals (migration 0033) once per
// statement, not once per ticket (issue 29). A registration of 50 ran the row trigger's upsert 50
// times, a millisecond of the database's time a call; a statement trigger reads the inserted rows
// (a transition table) and adds each group's count in one upsert. The totals are the same; they
// still change in the writer's transaction, whichever process or command inserts. SQLite has no
// statement triggers and keeps its row trigger (in the process, it costs no round trip).
// The row trigger's function stays, unused, as functions that change do here for a rolling upgrade.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { addToTotals, totalsSlot } from '../row-triggers';

const ticketKeys = ['event_id', 'attendee_status', 'order_status', 'crew', 'checked_in', 'slot'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const checkedIn = 'CASE WHEN i.checked_in_utc IS NULL THEN 0 ELSE 1 END';
  // Grouped, so no key is upserted twice by one statement.
  const add = addToTotals(
    'ticket_totals',
    ticketKeys,
    ['n'],
    `SELECT i.event_id, i.status, o.status, t.crew, ${checkedIn}, ${totalsSlot(db)}, COUNT(*)
      FROM issued i JOIN orders o ON o.id = i.order_id JOIN ticket_types t ON t.id = i.ticket_type_id
      GROUP BY i.event_id, i.status, o.status, t.crew, ${checkedIn}`,
  );
  await sql.raw('DROP TRIGGER ticket_totals_issued ON attendees').execute(db);
  await sql
    .raw(
      `CREATE FUNCTION ticket_totals_issued_together() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${add}; RETURN NULL; END $$`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER ticket_totals_issued AFTER INSERT ON attendees REFERENCING NEW TABLE AS issued
      FOR EACH STATEMENT EXECUTE FUNCTION ticket_totals_issued_together()`)
    .execute(db);
}
