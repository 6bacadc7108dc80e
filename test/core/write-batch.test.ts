// Group commit (core/platform/write-batch.ts) on a real SQLite file: writes queued together share
// a transaction; one that fails is refused alone and undoes nobody else's change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteBatcher } from '../../core/platform/write-batch';
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

  it('refuses a failing write alone: the others in its batch are committed once, nothing of it is', async () => {
    const writes = new WriteBatcher(db);
    const runs = new Map<string, number>();
    const job = (id: string, fail = false) =>
      writes.run(async (trx) => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
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
    // b1 ran alone (nothing was queued yet); b2 to b4 were batched, the batch was rolled back
    // when b3 failed (before b4 ran), and each then ran alone.
    expect(Object.fromEntries(runs)).toEqual({ b1: 1, b2: 2, b3: 2, b4: 1 });
  });
});
