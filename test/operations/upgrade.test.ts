// A data folder made by an earlier tagged version (test/fixtures/upgrade/<tag>/, made by that
// version's own code with scripts/make-upgrade-fixture.mjs) upgrades on start with nothing lost:
// every table of its schema is still there, every row with its old columns' values unchanged, and
// the service works on it (the demonstration key, the sample workspace's key, lists that page, a
// webhook endpoint's secret that still signs). The migrations the fixture had not run are worked
// out, not written down, so the test holds as migrations are added. SQLite only: the fixture is a
// SQLite file (PostgreSQL's migrations are the same code, tested by test/postgres/schema.test.ts).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../../db/migrations';
import { startServer } from '../../src/server';
import { settingsFrom } from '../../src/settings';
import { type Receiver, startReceiver } from '../support/receiver';
import { onPostgres } from '../support/test-store';
import { copyFixture, type Fixture, fixtureTags } from '../support/upgrade-fixtures';

/**
 * Columns a migration rewrites on purpose, each with its reason ("table.column": why). A migration
 * that changes old values must be listed here, or this test fails.
 */
const deliberateRewrites: Record<string, string> = {};
/** Columns every start moves by design (not a migration), each with its reason. */
const movedByEveryStart: Record<string, string> = {
  'key_generation.value':
    'a counter triggers move whenever a key or workspace changes; each start brings the demonstration workspace up to date',
};
/** Tables a migration drops on purpose, each with its reason. */
const deliberateDrops: Record<string, string> = {};

type Tables = Map<string, { columns: string[]; rows: string[] }>;

/** Every table's columns and rows (each row as JSON of its columns in order, sorted), read plainly. */
function readTables(file: string, only?: Tables): Tables {
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    const names = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
      )
      .pluck()
      .all() as string[];
    const tables: Tables = new Map();
    for (const name of names) {
      if (only && !only.has(name)) continue;
      const all = (db.prepare(`select name from pragma_table_info(?)`).pluck().all(name) as string[]).filter(
        (c) => !deliberateRewrites[`${name}.${c}`] && !movedByEveryStart[`${name}.${c}`],
      );
      const columns = only?.get(name)?.columns.filter((c) => all.includes(c)) ?? all;
      const list = columns.map((c) => `"${c}"`).join(', ');
      const rows = (db.prepare(`select ${list} from "${name}"`).raw(true).all() as unknown[][])
        .map((row) => JSON.stringify(row.map((v) => (Buffer.isBuffer(v) ? v.toString('base64') : v))))
        .sort();
      tables.set(name, { columns, rows });
    }
    return tables;
  } finally {
    db.close();
  }
}

async function start(dir: string, fixture: Fixture, quiet: boolean) {
  const settings = settingsFrom(
    { port: '0', host: '127.0.0.1', data: dir },
    { TESSERA_RATE_LIMIT: '10000', TESSERA_LOG_LEVEL: 'silent', TESSERA_SECRET_KEY: fixture.secretKey },
  );
  // Quiet: no deliveries and no scheduled work, so what the tables hold is what the start left.
  const server = await startServer(
    settings,
    quiet
      ? { dispatcher: false, scheduledJobs: false }
      : { delivery: { allowPrivate: true, timeoutMs: 5_000 } },
  );
  const agent = new Agent({
    connect: { ca: readFileSync(server.certFile!, 'utf8'), servername: 'localhost' },
  });
  const api = async (path: string, key: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await undiciFetch(`${server.restUrl}${path}`, {
      method: init.method ?? 'GET',
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${key}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { server, api, close: async () => Promise.all([server.close(), agent.close()]) };
}

for (const tag of fixtureTags)
  describe.skipIf(onPostgres)(`a data folder of ${tag}`, () => {
    let dir: string;
    let fixture: Fixture;
    let before: Tables;
    let after: Tables;
    let pending: string[];
    let recorded: string[];

    beforeAll(async () => {
      ({ dir, fixture } = copyFixture(tag));
      const file = join(dir, 'tessera.db');
      before = readTables(file);
      pending = Object.keys(allMigrations)
        .sort()
        .filter((name) => !fixture.migrations.includes(name));
      const quiet = await start(dir, fixture, true);
      try {
        after = readTables(file, before);
        recorded = readTables(file)
          .get('kysely_migration')!
          .rows.map((row) => JSON.parse(row)[0] as string);
      } finally {
        await quiet.close();
      }
    });

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('runs the migrations it had not run, and records them', () => {
      expect(fixture.migrations.length).toBeGreaterThan(0);
      expect(recorded.sort()).toEqual(Object.keys(allMigrations).sort());
      // Worked out from the fixture, so a new migration shows here without editing the test.
      expect(pending.every((name) => recorded.includes(name))).toBe(true);
    });

    it('keeps every table of the old schema', () => {
      const lost = [...before.keys()].filter((name) => !after.has(name) && !deliberateDrops[name]);
      expect(lost).toEqual([]);
    });

    it("keeps every old row with its old columns' values", () => {
      for (const [name, old] of before) {
        if (deliberateDrops[name] || !after.has(name)) continue; // the test above names it
        const now = after.get(name)!;
        expect(now.columns, `${name}: columns`).toEqual(old.columns);
        const kept = new Set(now.rows);
        const missing = old.rows.filter((row) => !kept.has(row));
        expect(missing, `${name}: rows missing or changed`).toEqual([]);
      }
      // The fixture holds data in most areas: a comparison of empty tables would prove little.
      const filled = [...before.values()].filter((t) => t.rows.length > 0).length;
      expect(filled).toBeGreaterThan(40);
    });

    it('counts the orders refunded before as paid back whole (migration 0046), and no other', () => {
      const db = new SqliteDatabase(join(dir, 'tessera.db'), { readonly: true });
      try {
        const orders = db.prepare('select status, total_minor, refunded_minor from orders').all() as {
          status: string;
          total_minor: number;
          refunded_minor: number;
        }[];
        const refunded = orders.filter((o) => o.status === 'refunded');
        expect(refunded.length).toBeGreaterThan(0);
        for (const o of refunded) expect(o.refunded_minor).toBe(o.total_minor);
        expect(orders.filter((o) => o.status !== 'refunded' && o.refunded_minor !== 0)).toEqual([]);
      } finally {
        db.close();
      }
    });

    describe('the service on it', () => {
      let running: Awaited<ReturnType<typeof start>>;
      let receiver: Receiver;

      beforeAll(async () => {
        running = await start(dir, fixture, false);
        receiver = await startReceiver();
      });
      afterAll(async () => {
        await running?.close();
        await receiver?.close();
      });

      it('answers the demonstration key and the sample workspace key', async () => {
        const demo = await running.api('/me', fixture.demoKey);
        expect(demo.status).toBe(200);
        const me = await running.api('/me', fixture.key);
        expect(me.status).toBe(200);
        expect(JSON.stringify(me.body)).toContain(fixture.workspaceId);
      });

      it('pages lists made by the old version', async () => {
        const first = await running.api(`/events/${fixture.eventId}/orders?limit=3`, fixture.key);
        expect(first.status).toBe(200);
        expect(first.body.data).toHaveLength(3);
        expect(first.body.nextCursor).toEqual(expect.any(String));
        const second = await running.api(
          `/events/${fixture.eventId}/orders?limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`,
          fixture.key,
        );
        expect(second.status).toBe(200);
        const ids = [...first.body.data, ...second.body.data].map((o: { orderId: string }) => o.orderId);
        expect(new Set(ids).size).toBe(6);
      });

      it('signs with the webhook secret the old version made (its encrypted secret still opens)', async () => {
        const { webhookId, secret } = fixture.webhook;
        const moved = await running.api(`/webhooks/${webhookId}`, fixture.key, {
          method: 'PATCH',
          body: { url: receiver.url('/upgraded'), active: true },
        });
        expect(moved.status).toBe(200);
        const sent = await running.api(`/webhooks/${webhookId}/test`, fixture.key, { method: 'POST' });
        expect(sent.status).toBe(202);
        const [delivery] = await receiver.waitFor(1, { path: '/upgraded' });
        const headers = Object.fromEntries(Object.entries(delivery!.headers).map(([k, v]) => [k, String(v)]));
        expect(() => new Webhook(secret).verify(delivery!.body, headers)).not.toThrow();
        expect(() =>
          new Webhook(`whsec_${Buffer.alloc(32).toString('base64')}`).verify(delivery!.body, headers),
        ).toThrow();
      });
    });
  });
