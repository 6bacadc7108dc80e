// The schema protects its own invariants: every column with a fixed set
// of values is held to exactly the set db/values.ts types it with; counts never go below zero or
// above capacity; one main entrance per event; event slugs unique across the deployment; and a
// database made before these constraints is upgraded with its rows kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { migrationProvider } from '../../db/migrations';
import { enumeratedColumns } from '../../db/values';

let dir: string;
const opened: { close(): Promise<void> }[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tessera-schema-'));
});
afterAll(async () => {
  for (const o of opened) await o.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function freshDatabase(): Db {
  files += 1;
  const o = openDatabase(join(dir, `schema-${files}.db`));
  opened.push(o);
  return o.db;
}

async function tableSql(db: Db): Promise<Map<string, string>> {
  const rows = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'table'`.execute(db);
  return new Map(rows.rows.map((r) => [r.name, r.sql]));
}

const now = '2026-11-23T10:00:00.000Z';

async function insertEvent(db: Db, id: string, workspaceId: string, slug: string) {
  await db
    .insertInto('events')
    .values({
      id,
      workspace_id: workspaceId,
      name: slug,
      slug,
      status: 'draft',
      online: 0,
      venue_name: 'Hall',
      venue_address: null,
      venue_city: null,
      venue_country: null,
      time_zone: 'UTC',
      starts_utc: '2027-01-01T09:00:00.000Z',
      ends_utc: '2027-01-01T17:00:00.000Z',
      languages: '["en"]',
      currency: 'EUR',
      modules: '{}',
      created_utc: now,
      updated_utc: now,
      change_seq: 1,
    })
    .execute();
}

async function insertDoor(db: Db, id: string, eventId: string, main: 0 | 1, sortOrder: number) {
  await db
    .insertInto('doors')
    .values({
      id,
      workspace_id: 'w1',
      event_id: eventId,
      name: id,
      kind: 'entrance',
      main,
      session_id: null,
      capacity: 2,
      inside: 0,
      reentry: 1,
      ticket_type_ids: '[]',
      add_on_ids: '[]',
      sort_order: sortOrder,
      created_utc: now,
      updated_utc: now,
      change_seq: 1,
    })
    .execute();
}

describe('enumerated columns', () => {
  it('hold each column to exactly the values db/values.ts types it with', async () => {
    const db = freshDatabase();
    await migrateToLatest(db);
    const tables = await tableSql(db);
    for (const [column, values] of Object.entries(enumeratedColumns)) {
      const [table, name] = column.split('.') as [string, string];
      const ddl = tables.get(table);
      expect(ddl, table).toBeDefined();
      const found = new RegExp(`check \\((?:"${name}" is null or )?"${name}" in \\(([^)]*)\\)\\)`).exec(ddl!);
      expect(found, `${column} has a CHECK of its values`).not.toBeNull();
      const allowed = found![1]!.split(',').map((v) => v.trim().replace(/^'|'$/g, ''));
      expect(allowed.sort(), column).toEqual(values.map(String).sort());
    }
  });

  it('lists every column the schema holds to a set of values', async () => {
    const db = freshDatabase();
    await migrateToLatest(db);
    const checked: string[] = [];
    for (const [table, ddl] of await tableSql(db)) {
      for (const m of ddl.matchAll(/check \((?:"[a-z_]+" is null or )?"([a-z_]+)" in \(/g))
        checked.push(`${table}.${m[1]}`);
    }
    expect(checked.sort()).toEqual(Object.keys(enumeratedColumns).sort());
  });

  it('refuses a value outside the set', async () => {
    const db = freshDatabase();
    await migrateToLatest(db);
    await db
      .insertInto('workspaces')
      .values({ id: 'w1', name: 'w', demonstration: 0, created_utc: now })
      .execute();
    await insertEvent(db, 'e1', 'w1', 'one');
    await expect(
      db
        .updateTable('events')
        .set({ status: 'archived' as never })
        .where('id', '=', 'e1')
        .execute(),
    ).rejects.toThrow(/CHECK constraint failed: events_status/);
    await expect(
      db
        .updateTable('events')
        .set({ online: 2 as never })
        .where('id', '=', 'e1')
        .execute(),
    ).rejects.toThrow(/CHECK constraint failed: events_online/);
  });
});

describe('counts and capacities', () => {
  let db: Db;
  beforeAll(async () => {
    db = freshDatabase();
    await migrateToLatest(db);
    await db
      .insertInto('workspaces')
      .values({ id: 'w1', name: 'w', demonstration: 0, created_utc: now })
      .execute();
    await insertEvent(db, 'e1', 'w1', 'counts');
    await db
      .insertInto('ticket_types')
      .values({
        id: 't1',
        workspace_id: 'w1',
        event_id: 'e1',
        name: 'General',
        description: '',
        price_minor: 0,
        vat_rate: 0,
        capacity: 2,
        taken: 2,
        max_per_order: 10,
        visibility: 'public',
        access_code: null,
        requires_approval: 0,
        crew: 0,
        sales_start_utc: null,
        sales_end_utc: null,
        included_add_on_ids: '[]',
        sort_order: 1,
        created_utc: now,
        updated_utc: now,
        change_seq: 1,
      })
      .execute();
    await insertDoor(db, 'd1', 'e1', 1, 1);
  });

  it('never takes more places than a ticket type has, nor fewer than none', async () => {
    const update = (taken: number) =>
      db.updateTable('ticket_types').set({ taken }).where('id', '=', 't1').execute();
    await expect(update(3)).rejects.toThrow(/ticket_types_taken_within_capacity/);
    await expect(update(-1)).rejects.toThrow(/ticket_types_taken/);
    await expect(
      db.updateTable('ticket_types').set({ capacity: 1 }).where('id', '=', 't1').execute(),
    ).rejects.toThrow(/ticket_types_taken_within_capacity/);
    await update(0);
  });

  it('never lets more inside a door than its capacity, nor fewer than none', async () => {
    const update = (inside: number) =>
      db.updateTable('doors').set({ inside }).where('id', '=', 'd1').execute();
    await expect(update(3)).rejects.toThrow(/doors_inside_within_capacity/);
    await expect(update(-1)).rejects.toThrow(/doors_inside/);
    await update(2);
  });

  it('keeps one main entrance per event', async () => {
    await expect(insertDoor(db, 'd2', 'e1', 1, 2)).rejects.toThrow(
      /UNIQUE constraint failed: doors.event_id/,
    );
    await insertDoor(db, 'd3', 'e1', 0, 3);
  });

  it('keeps event slugs unique across the deployment, whatever the workspace', async () => {
    await db
      .insertInto('workspaces')
      .values({ id: 'w2', name: 'w2', demonstration: 0, created_utc: now })
      .execute();
    await expect(insertEvent(db, 'e2', 'w2', 'counts')).rejects.toThrow(
      /UNIQUE constraint failed: events.slug/,
    );
  });

  it('gives every row of a list its writing transaction, and every list index the transaction before the position', async () => {
    const db = freshDatabase();
    await migrateToLatest(db);
    const tables = await tableSql(db);
    const withSeq = [...tables].filter(([, ddl]) => ddl.includes('"change_seq"')).map(([t]) => t);
    expect(withSeq.length).toBeGreaterThan(30);
    for (const table of [...withSeq, 'check_ins', 'deliveries'])
      expect(tables.get(table), table).toMatch(/"change_txn" integer default 0 not null/);
    const indexes = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and sql like '%change_seq%'`.execute(db);
    expect(indexes.rows.length).toBeGreaterThan(15);
    for (const index of indexes.rows) expect(index.sql, index.name).toMatch(/"change_txn", "change_seq"\)/);
  });

  it('has the indexes scans, pass holders and their changes are found by', async () => {
    const indexes = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and sql is not null`.execute(db);
    const byName = new Map(indexes.rows.map((i) => [i.name, i.sql]));
    expect(byName.get('check_ins_attendee')).toMatch(/on "check_ins" \("attendee_id"\)/);
    expect(byName.get('pass_holders_order')).toMatch(/on "pass_holders" \("order_id"\)/);
    expect(byName.get('pass_holders_pass_change')).toMatch(
      /on "pass_holders" \("pass_id", "change_txn", "change_seq"\)/,
    );
    expect(byName.get('doors_main_entrance')).toMatch(/where main = 1/);
  });
});

describe('upgrading a database of the first wave', () => {
  it('keeps every row, gives duplicate slugs and second main entrances way, and keeps finished answers', async () => {
    const db = freshDatabase();
    const migrator = new Migrator({ db, provider: migrationProvider });
    const before = await migrator.migrateTo('0004-drop-unread-scan-index');
    expect(before.error).toBeUndefined();
    const old = db as unknown as Db;
    await sql`insert into workspaces (id, name, demonstration, created_utc) values
      ('demo', 'Demonstration', 1, ${now}), ('mine', 'Mine', 0, ${now})`.execute(old);
    // The first wave allowed one slug in two workspaces, and two main entrances.
    await insertEvent(old, 'e-mine', 'mine', 'summit');
    await insertEvent(old, 'e-demo', 'demo', 'summit');
    await sql`update events set workspace_id = 'demo' where id = 'e-demo'`.execute(old);
    await sql`insert into doors (id, workspace_id, event_id, name, kind, main, capacity, inside, reentry,
      ticket_type_ids, add_on_ids, sort_order, created_utc, updated_utc, change_seq) values
      ('door-a', 'mine', 'e-mine', 'A', 'entrance', 1, null, 0, 1, '[]', '[]', 1, ${now}, ${now}, 1),
      ('door-b', 'mine', 'e-mine', 'B', 'entrance', 1, null, 0, 1, '[]', '[]', 2, ${now}, ${now}, 2)`.execute(
      old,
    );
    await sql`insert into api_keys (id, workspace_id, name, prefix, secret_hash, scopes, created_utc)
      values ('k1', 'mine', 'k', 'abk_aaaaaaaaaaaa', 'x', '[]', ${now})`.execute(old);
    await sql`insert into idempotency_records (api_key_id, idempotency_key, method, path, body_hash, state,
      status, response_body, created_utc, expires_utc) values
      ('k1', 'done', 'POST', '/p', 'h', 'done', 201, '{"kind":"data","data":1}', ${now}, '2099-01-01T00:00:00.000Z'),
      ('k1', 'running', 'POST', '/p', 'h', 'running', null, null, ${now}, '2099-01-01T00:00:00.000Z')`.execute(
      old,
    );

    await migrateToLatest(db);

    const events = await db.selectFrom('events').select(['id', 'slug']).orderBy('id').execute();
    expect(events).toEqual([
      { id: 'e-demo', slug: 'summit' },
      { id: 'e-mine', slug: 'summit-e-mine' },
    ]);
    const doors = await db.selectFrom('doors').select(['id', 'main']).orderBy('id').execute();
    expect(doors).toEqual([
      { id: 'door-a', main: 1 },
      { id: 'door-b', main: 0 },
    ]);
    const records = await db.selectFrom('idempotency_records').selectAll().execute();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ idempotency_key: 'done', workspace_id: 'mine' });
    const fk = await sql`pragma foreign_keys`.execute(db);
    expect(fk.rows).toEqual([{ foreign_keys: 1 }]);
    const ddl = (await tableSql(db)).get('speakers')!;
    expect(ddl).toMatch(/"name" text,/);
  });
});

describe('upgrading hooks to any platform (0018)', () => {
  it('keeps the subscriptions and their indexes, takes any platform name and refuses more than 40 characters', async () => {
    const db = freshDatabase();
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0017-several-processes')).error).toBeUndefined();
    const old = db as unknown as Db;
    await sql`insert into workspaces (id, name, demonstration, created_utc) values ('w', 'W', 0, ${now})`.execute(
      old,
    );
    const hook = (id: string, client: string) => sql`insert into hooks
      (id, workspace_id, api_key_id, event_type, event_id, url, client, active, created_utc)
      values (${id}, 'w', null, 'order.paid', null, 'https://example.org/h', ${client}, 1, ${now})`;
    await hook('h-zapier', 'zapier').execute(old);
    await expect(hook('h-before', 'pipedream').execute(old)).rejects.toThrow(/CHECK/);

    await migrateToLatest(db);

    await hook('h-pipedream', 'pipedream').execute(old);
    await hook('h-unknown', 'unknown').execute(old);
    await expect(hook('h-long', 'x'.repeat(41)).execute(old)).rejects.toThrow(/CHECK/);
    const rows = await db.selectFrom('hooks').select(['id', 'client']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'h-pipedream', client: 'pipedream' },
      { id: 'h-unknown', client: 'unknown' },
      { id: 'h-zapier', client: 'zapier' },
    ]);
    const indexes = await sql<{ name: string }>`
      select name from sqlite_master where type = 'index' and tbl_name = 'hooks' and sql is not null`.execute(
      db,
    );
    expect(indexes.rows.map((i) => i.name).sort()).toEqual(['hooks_key', 'hooks_workspace']);
  });
});

describe('giving issued tickets their codes (0029)', () => {
  it('gives every ticket of an older database a code of its own, in the format, unique', async () => {
    const db = freshDatabase();
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0028-retire-and-switch-off')).error).toBeUndefined();
    const old = db as unknown as Db;
    // Only the tickets matter here: their order, type and event are left out.
    await sql`pragma foreign_keys = off`.execute(old);
    for (let i = 0; i < 1203; i++)
      await sql`insert into attendees (id, workspace_id, event_id, order_id, ticket_type_id, language, status,
        erased, created_utc, updated_utc, change_seq)
        values (${`a-${i}`}, 'w', 'e', 'o', 't', 'en', 'active', 0, ${now}, ${now}, ${i + 1})`.execute(old);
    await sql`pragma foreign_keys = on`.execute(old);

    await migrateToLatest(db);

    const codes = (await db.selectFrom('attendees').select('ticket_code').execute()).map(
      (r) => r.ticket_code,
    );
    expect(codes).toHaveLength(1203);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{26}$/);
    expect(new Set(codes).size).toBe(1203);
    // Another ticket's code (the list's order is the database's: the first may be a-1's own).
    const own = await db
      .selectFrom('attendees')
      .select('ticket_code')
      .where('id', '=', 'a-1')
      .executeTakeFirst();
    const taken = codes.find((code) => code !== own?.ticket_code)!;
    await expect(
      db.updateTable('attendees').set({ ticket_code: taken }).where('id', '=', 'a-1').execute(),
    ).rejects.toThrow(/UNIQUE/);
  });
});
