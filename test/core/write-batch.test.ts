// Group commit (core/platform/storage/write-batch.ts) on a real SQLite file: writes queued together share
// a transaction; one that fails is refused alone and undoes nobody else's change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteBatcher } from '../../core/platform/storage/write-batch';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';

let dir: string;
let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tessera-batch-'));
  ({ db, close } = openDatabase(join(dir, 'tessera.db')));
  await migrateToLatest(db);
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

const addWorkspace = (trx: Db, id: string) =>
  trx
    .insertInto('workspaces')
    .values({ id, name: id, demonstration: 0, created_utc: new Date().toISOString() })
    .execute();
const names = async () =>
  (await db.selectFrom('workspaces').select('id').orderBy('id').execute()).map((w) => w.id);

describe('WriteBatcher', () => {
  it('lets writes queued while another commits share one transaction, each answering its own result', async () => {
    const writes = new WriteBatcher(db);
    const transactions = new Set<Db>();
    const results = await Promise.all(
      ['a1', 'a2', 'a3', 'a4'].map((id) =>
        writes.run(async (trx) => {
          transactions.add(trx);
          await addWorkspace(trx, id);
          return id.toUpperCase();
        }),
      ),
    );
    expect(results).toEqual(['A1', 'A2', 'A3', 'A4']);
    // a1 found nothing queued and ran alone; a2 to a4 queued meanwhile and went together.
    expect(transactions.size).toBe(2);
    expect(await names()).toEqual(expect.arrayContaining(['a1', 'a2', 'a3', 'a4']));
  });

  it('runs a write sent ahead before the writes already waiting', async () => {
    // Lanes of one write each (PostgreSQL's shape), one lane: the order they ran in is the queue's.
    const writes = new WriteBatcher(db, { lanes: 1, maxBatch: 1 });
    const ran: string[] = [];
    const job = (id: string, ahead = false) =>
      writes.run(
        async (trx) => {
          ran.push(id);
          await addWorkspace(trx, id);
        },
        { ahead },
      );
    // d1 runs at once; d2 and d3 wait; d4, sent last but ahead, goes before them.
    await Promise.all([job('d1'), job('d2'), job('d3'), job('d4', true)]);
    expect(ran).toEqual(['d1', 'd4', 'd2', 'd3']);
  });

  it('refuses a failing write alone: the others in its batch are committed once, nothing of it is', async () => {
    const writes = new WriteBatcher(db);
    const runs = new Map<string, number>();
    const transactions = new Map<string, Db>();
    const job = (id: string, fail = false) =>
      writes.run(async (trx) => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
        transactions.set(id, trx);
        await addWorkspace(trx, id);
        if (fail) throw new Error(`refused ${id}`);
        return id;
      });
    const settled = await Promise.allSettled([job('b1'), job('b2'), job('b3', true), job('b4')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason.message).toBe('refused b3');
    const all = await names();
    expect(all).toEqual(expect.arrayContaining(['b1', 'b2', 'b4']));
    expect(all).not.toContain('b3');
    // b1 ran alone (nothing was queued yet); b2 to b4 shared one transaction, b3's failure rolled
    // back only its own savepoint, and nothing ran twice.
    expect(Object.fromEntries(runs)).toEqual({ b1: 1, b2: 1, b3: 1, b4: 1 });
    expect(transactions.get('b2')).toBe(transactions.get('b3'));
    expect(transactions.get('b4')).toBe(transactions.get('b3'));
  });

  it('rolls back a failing write of a batch of one whole', async () => {
    const writes = new WriteBatcher(db);
    const refused = writes.run(async (trx) => {
      await addWorkspace(trx, 'c1');
      throw new Error('refused c1');
    });
    await expect(refused).rejects.toThrow('refused c1');
    expect(await names()).not.toContain('c1');
  });

  it('rejects every write of a batch whose commit fails, and writes none of them', async () => {
    const writes = new WriteBatcher(db);
    // A deferred constraint fails only at commit: the whole batch is then refused, each write once.
    const runs: string[] = [];
    const job = (id: string, broken = false) =>
      writes.run(async (trx) => {
        runs.push(id);
        if (broken) await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto('api_keys')
          .values({
            id,
            workspace_id: broken ? 'no-such-workspace' : 'b1',
            name: id,
            prefix: `abk_${id.padEnd(12, 'x')}`,
            secret_hash: 'x',
            scopes: '[]',
            legacy_scopes: null,
            rate_per_minute: null,
            created_utc: new Date().toISOString(),
            expires_utc: null,
            revoked_utc: null,
            last_used_utc: null,
          })
          .execute();
        return id;
      });
    const settled = await Promise.allSettled([job('d1'), job('d2'), job('d3', true), job('d4')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected']);
    expect(runs).toEqual(['d1', 'd2', 'd3', 'd4']);
    const keys = (await db.selectFrom('api_keys').select('id').execute()).map((k) => k.id);
    expect(keys).toContain('d1');
    for (const id of ['d2', 'd3', 'd4']) expect(keys).not.toContain(id);
  });
});
