// One membership that is not over per community and email address: migration 0022 puts older data
// right (the earliest joined stays, later copies are recorded as left) before its unique index
// holds the rule, and the import refuses a file that would break it, naming the member.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../core/admin/operator';
import { importFile } from '../../core/import/import-file';
import { ImportRefused } from '../../core/import/write';
import { migrateToLatest, openDatabase } from '../../db/connect';
import { migrationProvider } from '../../db/migrations';
import { startTestServer, type TestServer } from '../support/server';

describe('migration 0022', () => {
  let dir: string;
  let opened: { close(): Promise<void> } | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-membership-migration-'));
  });
  afterAll(async () => {
    await opened?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the earliest of several memberships of one address, then refuses another', async () => {
    const o = openDatabase(join(dir, 'before.db'));
    opened = o;
    const db = o.db;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0018-any-hook-client')).error).toBeUndefined();
    const at = (day: number) => `2026-0${day}-01T10:00:00.000Z`;
    await sql`insert into workspaces (id, name, demonstration, created_utc) values ('w', 'W', 0, ${at(1)})`.execute(
      db,
    );
    await sql`insert into communities (id, workspace_id, slug, name, online, languages, time_zone, join_policy, status,
      created_utc, updated_utc, change_seq) values ('c', 'w', 'c', 'C', 0, '["en"]', 'UTC', 'open', 'published',
      ${at(1)}, ${at(1)}, 1)`.execute(db);
    const member = (id: string, email: string | null, status: string, joined: number) =>
      sql`insert into community_members (id, workspace_id, community_id, name, email, language, status, announcements,
        reminders, joined_utc, approved_utc, left_utc, erased, created_utc, updated_utc, change_seq)
        values (${id}, 'w', 'c', 'N', ${email}, 'en', ${status}, 1, 1, ${at(joined)}, null,
        ${status === 'left' ? at(joined) : null}, 0, ${at(joined)}, ${at(joined + 1)}, 2)`.execute(db);
    await member('m-later', 'a@example.org', 'pending', 3);
    await member('m-first', 'a@example.org', 'active', 2);
    await member('m-gone', 'a@example.org', 'left', 1);
    await member('m-other', 'b@example.org', 'active', 2);
    await member('m-erased-1', null, 'active', 2);
    await member('m-erased-2', null, 'active', 2);

    await migrateToLatest(db);

    const rows = await sql<{ id: string; status: string; left_utc: string | null }>`
      select id, status, left_utc from community_members order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'm-erased-1', status: 'active', left_utc: null },
      { id: 'm-erased-2', status: 'active', left_utc: null },
      { id: 'm-first', status: 'active', left_utc: null },
      { id: 'm-gone', status: 'left', left_utc: at(1) },
      { id: 'm-later', status: 'left', left_utc: at(4) },
      { id: 'm-other', status: 'active', left_utc: null },
    ]);
    await expect(member('m-again', 'a@example.org', 'pending', 5)).rejects.toThrow(/UNIQUE/);
    await member('m-left-again', 'a@example.org', 'left', 5);
  });
});

describe('the import', () => {
  let t: TestServer;
  let workspaceId: string;
  let key: string;
  beforeAll(async () => {
    t = await startTestServer();
    ({ workspaceId } = await t.workspace('Membership import', false));
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  });
  afterAll(async () => t?.close());

  const file = (slug: string, members: Record<string, unknown>[]) =>
    JSON.stringify({
      format: 'tessera-import',
      version: 1,
      communities: [
        {
          key: 'club',
          slug,
          name: 'Import Club',
          timeZone: 'UTC',
          members: members.map((m, i) => ({
            key: `m${i}`,
            name: `Member ${i}`,
            joinedUtc: '2026-10-01T10:00:00Z',
            ...m,
          })),
        },
      ],
    });

  async function refusal(text: string): Promise<ImportRefused> {
    const operator = await operatorContext(t.server.services, workspaceId);
    const error = await importFile(operator, text).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportRefused);
    return error as ImportRefused;
  }

  it('refuses two members of one community with one address, unless one of them left', async () => {
    const refused = await refusal(
      file('import-club-a', [
        { email: 'x@example.org' },
        { email: 'X@example.org' },
        { email: 'y@example.org' },
      ]),
    );
    expect(refused.issues).toEqual([
      {
        path: 'communities[0].members[1].email',
        message: 'communities[0].members[0] has this email address already.',
      },
    ]);
    const operator = await operatorContext(t.server.services, workspaceId);
    const imported = await importFile(
      operator,
      file('import-club-a', [
        { email: 'x@example.org', status: 'left', leftUtc: '2026-10-02T10:00:00Z' },
        { email: 'x@example.org' },
      ]),
    );
    expect(imported.created.community_members).toBe(2);
  });

  it('sends member.left for an active member who left, never for someone who was only waiting', async () => {
    const operator = await operatorContext(t.server.services, workspaceId);
    const members = (status: string) => [
      {
        key: 'waiting',
        email: 'waiting@example.org',
        status: status === 'left' ? 'left' : 'pending',
        ...left(status),
      },
      { key: 'active', email: 'active@example.org', status, ...left(status) },
    ];
    const left = (status: string) => (status === 'left' ? { leftUtc: '2026-10-02T10:00:00Z' } : {});
    await importFile(operator, file('import-club-c', members('active')));
    const before = await t.server.services.db.selectFrom('outbox').select('id').execute();
    await importFile(operator, file('import-club-c', members('left')));
    const sent = await t.server.services.db
      .selectFrom('outbox')
      .select(['type', 'payload'])
      .where(
        'id',
        'not in',
        before.map((r) => r.id),
      )
      .execute();
    expect(sent.map((m) => [m.type, JSON.parse(m.payload).data.member.email])).toEqual([
      ['member.left', 'active@example.org'],
    ]);
  });

  it("refuses a member whose address is another membership's, as one made through the API", async () => {
    const operator = await operatorContext(t.server.services, workspaceId);
    await importFile(operator, file('import-club-b', [{ email: 'first@example.org' }]));
    const community = await t.server.services.db
      .selectFrom('communities')
      .select('id')
      .where('slug', '=', 'import-club-b')
      .executeTakeFirstOrThrow();
    const joined = await t.api(`/communities/${community.id}/members`, {
      key,
      method: 'POST',
      body: { name: 'Live Member', email: 'live@example.org' },
    });
    expect(joined.status).toBe(201);
    // The same file again is fine (its member is the same row); one with the live address is not.
    await importFile(operator, file('import-club-b', [{ email: 'first@example.org' }]));
    const refused = await refusal(
      file('import-club-b', [{ email: 'first@example.org' }, { email: 'live@example.org' }]),
    );
    expect(refused.issues).toEqual([
      {
        path: 'communities[0].members[1].email',
        message: `Member ${joined.body.memberId} of this community already has this email address.`,
      },
    ]);
  });
});
