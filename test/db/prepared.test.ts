// Statements built and compiled once (db/prepared.ts): each call binds its own values, in every
// place a placeholder stands, also inside a transaction, and answers rows or the count changed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepare } from '../../db/prepared';
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
