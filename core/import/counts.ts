// The counters the service keeps beside the rows (places taken of ticket types and add-ons, tickets
// a discount code was used for) are counted again from the tickets of each imported event, and
// written only where they differ. More places taken than a capacity allows refuses the file.
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { reserveChangeSeqs } from '../../db/sequence';
import { placeHoldingStatuses } from '../sales';
import type { ImportIssue, ImportPlan } from './plan';

type Counted = 'ticket_types' | 'add_ons' | 'discount_codes';

export async function recount(
  db: Db,
  plan: ImportPlan,
  eventIds: string[],
  now: string,
): Promise<ImportIssue[]> {
  if (eventIds.length === 0) return [];
  const holding = sql.join(placeHoldingStatuses.map((s) => sql.lit(s)));
  const events = sql.join(eventIds);
  const ticketTypes = await sql<{ id: string; current: number; capacity: number | null; counted: number }>`
    select t.id, t.taken as current, t.capacity, (
      select count(*) from attendees a join orders o on o.id = a.order_id
      where a.ticket_type_id = t.id and a.status = 'active' and o.status in (${holding})
    ) as counted
    from ticket_types t where t.event_id in (${events})`.execute(db);
  const addOns = await sql<{ id: string; current: number; capacity: number | null; counted: number }>`
    select x.id, x.taken as current, x.capacity, (
      select coalesce(sum(aa.quantity), 0) from attendee_add_ons aa
      join attendees a on a.id = aa.attendee_id join orders o on o.id = a.order_id
      where aa.add_on_id = x.id and a.status = 'active' and o.status in (${holding})
    ) as counted
    from add_ons x where x.event_id in (${events})`.execute(db);
  const codes = await sql<{ id: string; current: number; capacity: number | null; counted: number }>`
    select d.id, d.used as current, null as capacity, (
      select count(*) from attendees a join orders o on o.id = a.order_id
      where o.discount_code_id = d.id and a.status = 'active' and o.status in (${holding})
    ) as counted
    from discount_codes d where d.event_id in (${events})`.execute(db);

  const issues: ImportIssue[] = [];
  const pathOf = (table: Counted, id: string) =>
    plan.rows(table).find((p) => p.row.id === id)?.path ?? `${table} ${id}`;
  const apply = async (table: Counted, column: 'taken' | 'used', rows: typeof ticketTypes.rows) => {
    const differing = rows.filter((r) => r.current !== r.counted);
    for (const r of differing)
      if (r.capacity !== null && r.counted > r.capacity)
        issues.push({
          path: `${pathOf(table, r.id)}.capacity`,
          message: `The file's tickets hold ${r.counted} places, more than its capacity of ${r.capacity}.`,
        });
    if (issues.length > 0) return;
    let seq = await reserveChangeSeqs(db, differing.length);
    for (const r of differing)
      await db
        .updateTable(table)
        .set({ [column]: r.counted, updated_utc: now, change_seq: seq++ })
        .where('id', '=', r.id)
        .execute();
  };
  await apply('ticket_types', 'taken', ticketTypes.rows);
  await apply('add_ons', 'taken', addOns.rows);
  await apply('discount_codes', 'used', codes.rows);
  return issues;
}
