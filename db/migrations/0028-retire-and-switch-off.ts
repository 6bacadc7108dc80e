// Removing what was made (issue 26): a discount code can be switched off (active) and switched on
// again; a ticket type that has sold is retired rather than removed (retired_utc: no new tickets,
// gone from the public page, kept for the orders that hold it).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('discount_codes')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1).check(sql`"active" in (0, 1)`))
    .execute();
  await db.schema.alterTable('ticket_types').addColumn('retired_utc', 'text').execute();
}
