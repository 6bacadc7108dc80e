// Migration 0023 on a database that already holds share links (made by the import or the sample
// before links could be made live): each gets the time it was shared as made and changed, and a
// change position in that order, so the new list pages them and updatedSince finds them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { migrationProvider } from '../../db/migrations';

const dir = mkdtempSync(join(tmpdir(), 'tessera-share-links-'));
const opened = openDatabase(join(dir, 'before.db'));
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('upgrading share links (0023)', () => {
  it('stamps the links already there with their sharing time and positions in that order', async () => {
    const db = opened.db;
    const before = await new Migrator({ db, provider: migrationProvider }).migrateTo('0018-any-hook-client');
    expect(before.error).toBeUndefined();
    const old = db as unknown as Db;
    // Only the links matter here: their sharers and events are left out.
    await sql`pragma foreign_keys = off`.execute(old);
    await sql`insert into share_links (id, workspace_id, event_id, sharer_id, channel, code, shared_utc) values
      ('l-late', 'w', 'e', 's', 'x', 'late', '2026-05-02T10:00:00.000Z'),
      ('l-early', 'w', 'e', 's', 'email', 'early', '2026-05-01T10:00:00.000Z')`.execute(old);

    await migrateToLatest(db);

    const links = await db
      .selectFrom('share_links')
      .select(['id', 'shared_utc', 'created_utc', 'updated_utc', 'change_seq', 'change_txn', 'removed_utc'])
      .orderBy('change_seq')
      .execute();
    expect(links.map((l) => l.id)).toEqual(['l-early', 'l-late']);
    for (const link of links) {
      expect(link).toMatchObject({
        created_utc: link.shared_utc,
        updated_utc: link.shared_utc,
        removed_utc: null,
      });
      expect(link.change_seq).toBeGreaterThan(0);
    }
    // The next change position handed out comes after them.
    const counter = await db.selectFrom('change_sequence').select('value').executeTakeFirstOrThrow();
    expect(Number(counter.value)).toBeGreaterThanOrEqual(links[1]!.change_seq);
  });
});
