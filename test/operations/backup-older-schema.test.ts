// A backup of a database at an older schema: the data folder of the oldest tagged version kept in
// test/fixtures/upgrade (made by that version's own code) is backed up with this version's
// `tessera backup`, as an operator does before starting a new version on it. The backup leaves the
// source as it was and says the schema is behind; `tessera restore` brings it into an empty folder
// as it was; and `tessera serve` on the restored folder runs the migrations it had not run and
// serves the keys that were in it. SQLite only: on PostgreSQL the database is pg_dump's, not in the
// file (backup.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../../db/migrations';
import { call, endAll, serve, tessera } from '../support/spawned';
import { onPostgres } from '../support/test-store';
import { copyFixture, fixtureTags } from '../support/upgrade-fixtures';

/** The migrations a SQLite database records, in order. */
function recordedMigrations(file: string): string[] {
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe.skipIf(onPostgres)('the backup of an older database (SQLite)', () => {
  const tag = [...fixtureTags].sort()[0]!;
  const latest = Object.keys(allMigrations).sort();
  let dataDir: string;
  let root: string;

  afterAll(async () => {
    await endAll();
    for (const dir of [dataDir, root]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`restores ${tag}'s folder, and a server on it upgrades it to this schema and serves its keys`, async () => {
    const copied = copyFixture(tag);
    dataDir = copied.dir;
    const { fixture } = copied;
    root = mkdtempSync(join(tmpdir(), 'tessera-backup-older-'));
    const file = join(root, 'older.db');
    const restoredDir = join(root, 'restored');
    const env = { TESSERA_SECRET_KEY: fixture.secretKey };
    const pending = latest.filter((name) => !fixture.migrations.includes(name));
    expect(pending.length, `${tag} is older than this version's schema`).toBeGreaterThan(0);

    const backup = await tessera(['backup', '--to', file, '--data', dataDir], env);
    expect(backup).toMatchObject({ source: 'sqlite', schema: 'behind', files: fixture.keyFiles });
    expect(backup.notes.join(' ')).toContain(
      `behind this version by ${pending.length} migration(s) (${pending[0]} first); the service migrates it forward`,
    );
    // A backup never migrates what it copies.
    expect(recordedMigrations(join(dataDir, 'tessera.db'))).toEqual(fixture.migrations);

    const restored = await tessera(['restore', file, '--data', restoredDir], env);
    expect(restored).toMatchObject({ source: 'sqlite', schema: 'behind', files: fixture.keyFiles });
    expect(recordedMigrations(join(restoredDir, 'tessera.db'))).toEqual(fixture.migrations);

    const server = await serve(restoredDir, env);
    expect(recordedMigrations(join(restoredDir, 'tessera.db'))).toEqual(latest);
    const me = await call(server, '/me', { key: fixture.key });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(JSON.stringify(me.body)).toContain(fixture.workspaceId);
    expect((await call(server, '/me', { key: fixture.demoKey })).status).toBe(200);
    const event = await call(server, `/events/${fixture.eventId}`, { key: fixture.key });
    expect(event.status, JSON.stringify(event.body)).toBe(200);
    expect((await tessera(['migrate', '--status', '--data', restoredDir], env)).pending).toEqual([]);
  });
});
