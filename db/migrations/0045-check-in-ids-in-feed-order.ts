// PostgreSQL: checkInId grows in the order door scans become visible (issue 50). The door-scan list
// pages by (change_txn, id) and shows only settled transactions (db/sequence.ts), so it never passed
// a scan committed late; but its ids came from an identity taken mid-transaction, in no relation to
// change_txn: a scan whose transaction began first could take id 309 after a later one took 308,
// and the list showed 309 before 308 (and, asked `after=309`, answered 308).
//
// Now a trigger gives each new check-in its id and its change_txn together, one insert at a time,
// so that a higher id never has a lower change_txn: change_txn is the larger of the writing
// transaction's id and the highest change_txn given so far (kept in a sequence, which no
// transaction holds: nothing waits for a commit). The list's order (change_txn, id) is then id order,
// and the settled horizon applies to ids: a row is shown once every transaction below its change_txn
// has ended, and a scan still in flight always gets a change_txn at or above its own transaction id,
// so at or above the horizon of any page that could not see it, and an id above every id such a
// page showed. A change_txn raised to another transaction's id only shows the row once that one has
// ended too (a moment: a scan's transaction is short).
//
// The turn is a session-level advisory lock held for the few microseconds of the assignment (never
// until commit, so scans still commit together); its release runs whatever error or cancel comes
// in between. A held transaction-level lock instead would queue every scan of the deployment
// behind the one before it until that one's commit.
//
// An id given explicitly (a restore of pg_dump's data) is kept. Rows already there get the largest
// change_txn of the rows up to their id, so the whole list is in id order. SQLite writes one
// transaction at a time: ids are in commit order there already, and change_txn stays 0.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

const assignInTurn = `
create function check_in_in_feed_order() returns trigger language plpgsql as $$
declare
  turn constant bigint := hashtextextended('tessera check-in ids', 0);
  stamp bigint;
begin
  begin
    perform pg_advisory_lock(turn);
    stamp := greatest(pg_current_xact_id()::text::bigint, (select last_value from check_in_txn_floor));
    perform setval('check_in_txn_floor', stamp);
    if new.id is null then
      new.id := nextval('check_ins_id_seq');
    end if;
    perform pg_advisory_unlock(turn);
  exception when others or query_canceled then
    -- A session-level lock outlives the transaction: let it go before the error goes on.
    perform pg_advisory_unlock(turn);
    raise;
  end;
  new.change_txn := stamp;
  return new;
end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // The identity's next value, taken over by a sequence of the same name that only the trigger draws from.
  const { rows } = await sql<{ next: string }>`
    select greatest(
      coalesce(pg_sequence_last_value(pg_get_serial_sequence('check_ins', 'id')), 0),
      coalesce((select max(id) from check_ins), 0)) + 1 as next`.execute(db);
  await sql`alter table check_ins alter column id drop identity`.execute(db);
  await sql`create sequence check_ins_id_seq owned by check_ins.id`.execute(db);
  await sql`select setval('check_ins_id_seq', ${Number(rows[0]!.next)}, false)`.execute(db);

  await sql`
    update check_ins c set change_txn = up_to.txn
    from (select id, max(change_txn) over (order by id) as txn from check_ins) up_to
    where c.id = up_to.id and c.change_txn < up_to.txn`.execute(db);
  await sql`create sequence check_in_txn_floor minvalue 0 start 0`.execute(db);
  await sql`select setval('check_in_txn_floor', coalesce((select max(change_txn) from check_ins), 0))`.execute(
    db,
  );

  await sql.raw(assignInTurn).execute(db);
  await sql`create trigger check_ins_in_feed_order before insert on check_ins
    for each row execute function check_in_in_feed_order()`.execute(db);
}
