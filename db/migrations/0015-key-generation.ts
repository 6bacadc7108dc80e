// A counter the database itself moves whenever a key or a workspace changes in a way a verified
// key depends on (revoked, scopes, limit, expiry, name; made or removed), by triggers, so every
// writer counts: this process, another one, the CLI. Key verification keeps verified keys in
// memory and reads only this counter per call: a revocation still ends a key on the very next
// call, in every process.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { createTrigger } from '../dialect';

const keyColumns =
  'workspace_id, prefix, secret_hash, name, scopes, legacy_scopes, rate_per_minute, expires_utc, revoked_utc';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('key_generation')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('key_generation').values({ id: 1, value: 0 }).execute();
  const bump = 'UPDATE key_generation SET value = value + 1 WHERE id = 1;';
  for (const [name, when] of [
    ['api_keys_made', 'AFTER INSERT ON api_keys'],
    ['api_keys_changed', `AFTER UPDATE OF ${keyColumns} ON api_keys`],
    ['api_keys_removed', 'AFTER DELETE ON api_keys'],
    ['workspaces_changed', 'AFTER UPDATE OF name, demonstration ON workspaces'],
    ['workspaces_removed', 'AFTER DELETE ON workspaces'],
  ] as const)
    await createTrigger(db, { name: `key_generation_${name}`, when, statement: bump });
}
