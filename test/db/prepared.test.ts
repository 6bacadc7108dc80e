// Statements built and compiled once (db/prepared.ts): each call binds its own values, in every
// place a placeholder stands, also inside a transaction, and answers rows or the count changed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRows, prepare } from '../../db/prepared';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.close());

describe('prepared statements', () => {
  it('binds each call’s values where the placeholders stand, compiling once', async () => {
    const { workspaceId: a } = await t.workspace('Prepared A');
    const { workspaceId: b } = await t.workspace('Prepared B');
    let builds = 0;
    const byId = prepare<{ id: string }, { name: string }>((db, p) => {
      builds += 1;
      return db.selectFrom('workspaces').select('name').where('id', '=', p.id);
    });
    const db = t.server.services.db;
    expect(await byId.first(db, { id: a })).toEqual({ name: 'Prepared A' });
    expect(await byId.first(db, { id: b })).toEqual({ name: 'Prepared B' });
    expect(await byId.first(db, { id: 'none' })).toBeUndefined();
    expect(builds).toBe(1);
  });

  it('uses a placeholder in several places, writes inside a transaction, and counts the rows changed', async () => {
    const { workspaceId } = await t.workspace('Prepared C');
    const rename = prepare<{ id: string; name: string }>((db, p) =>
      db.updateTable('workspaces').set({ name: p.name }).where('id', '=', p.id).where('name', '!=', p.name),
    );
    const db = t.server.services.db;
    const changed = await db
      .transaction()
      .execute((trx) => rename.changed(trx, { id: workspaceId, name: 'Renamed C' }));
    expect(changed).toBe(1);
    expect(await rename.changed(db, { id: workspaceId, name: 'Renamed C' })).toBe(0);
  });

  it('takes raw SQL too', async () => {
    const answer = prepare<{ n: number }, { twice: number }>(
      (_db, p) => sql<{ twice: number }>`select ${p.n} * 2 as twice`,
    );
    expect(await answer.first(t.server.services.db, { n: 21 })).toEqual({ twice: 42 });
    expect(await answer.first(t.server.services.db, { n: 5 })).toEqual({ twice: 10 });
  });
});

describe('insertRows', () => {
  const workspace = (id: string, name: string) => ({
    id,
    name,
    demonstration: 0 as const,
    created_utc: '2026-11-24T00:00:00.000Z',
  });

  it('writes every row with its own values, for each number of rows, reusing the SQL of a shape', async () => {
    const db = t.server.services.db;
    const ids = (n: number, tag: string) =>
      Array.from(
        { length: n },
        (_, i) => `00000000-0000-4000-8000-${tag}${String(i).padStart(12 - tag.length, '0')}`,
      );
    for (const [n, tag] of [
      [3, 'a'],
      [1, 'b'],
      [3, 'c'],
    ] as const) {
      const rows = ids(n, tag).map((id, i) => workspace(id, `Rows ${tag}${i}`));
      await insertRows(db, 'workspaces', rows);
      const stored = await db
        .selectFrom('workspaces')
        .select(['id', 'name'])
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('id')
        .execute();
      expect(stored).toEqual(rows.map((r) => ({ id: r.id, name: r.name })));
    }
  });

  it('refuses rows whose columns differ, writing nothing', async () => {
    const db = t.server.services.db;
    const first = workspace('00000000-0000-4000-8000-d00000000001', 'Differs 1');
    const { name, ...rest } = workspace('00000000-0000-4000-8000-d00000000002', 'Differs 2');
    const reordered = { ...rest, name };
    await expect(insertRows(db, 'workspaces', [first, reordered])).rejects.toThrow(/differ in their columns/);
    const stored = await db.selectFrom('workspaces').select('id').where('name', 'like', 'Differs%').execute();
    expect(stored).toEqual([]);
  });
});
