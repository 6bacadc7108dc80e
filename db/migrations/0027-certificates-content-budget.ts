// Certificates, published content and budget lines written through the API. A certificate gets the
// code of its public verification page (/v/{code}: random, never derived from an id) and, once
// revoked, when (kept, so the page says it was revoked); one live certificate of each kind per
// ticket, held by a unique index so concurrent issues cannot make two. A budget line gets the VAT
// rate of its net amounts (the summary stays net of VAT).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('certificates')
    .addColumn('verification_code', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('certificates').addColumn('revoked_utc', 'text').execute();
  // Certificates imported before: each its own code, as one issued now gets.
  const rows = await db.selectFrom('certificates').select('id').execute();
  for (const row of rows)
    await db
      .updateTable('certificates')
      .set({ verification_code: randomBytes(18).toString('base64url') })
      .where('id', '=', row.id)
      .execute();
  await db.schema
    .createIndex('certificates_verification_code')
    .on('certificates')
    .column('verification_code')
    .unique()
    .execute();
  await db.schema
    .createIndex('certificates_one_live_per_kind')
    .on('certificates')
    .columns(['attendee_id', 'kind'])
    .unique()
    .where(sql.ref('revoked_utc'), 'is', null)
    .execute();

  await db.schema
    .alterTable('budget_lines')
    .addColumn('vat_rate', 'real', (c) =>
      c.notNull().defaultTo(0).check(sql`"vat_rate" >= 0 and "vat_rate" <= 100`),
    )
    .execute();
}
