// A page of the change feed shows a change once the transactions that may write this database and
// began before it have ended (db/sequence.ts settledChanges). Transaction ids are the cluster's: a
// transaction of another database on the same server must not hold the lists back, one of this
// database must. PostgreSQL only (`npm run test:postgres`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent } from '../../core/events/create-event';
import { invoke } from '../../core/platform/pipeline/invoke';
import { readOnlyTransaction } from '../../core/platform/pipeline/read-only-transaction';
import { createRoom } from '../../core/programme/create-room';
import { listRooms } from '../../core/programme/list-rooms';
import { postgresSnapshots, type ReadSnapshot } from '../../db/read-snapshot';
import { sessionsWithSnapshot } from '../../db/sessions-at-snapshot';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';
import { signal } from '../support/signal';
import { databaseFor, onPostgres } from '../support/test-store';

const { call, ctx, db } = raceHarness('Settled across databases');

/** A transaction that has taken its id on `on` and stays open until `release` fires. */
function openTransaction(on: Kysely<any>) {
  const began = signal();
  const release = signal();
  const done = on.transaction().execute(async (trx) => {
    // Read back: the write queue's own text would be held until a next statement (db/sequence.ts).
    const { rows } = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx);
    if (!rows[0]?.id) throw new Error('no transaction id');
    began.fire();
    await release.fired;
  });
  return { began: began.fired, release, done };
}

describe.skipIf(!onPostgres)('settled changes with a transaction running elsewhere (PostgreSQL)', () => {
  let otherDir: string;
  let other: Kysely<any>;

  beforeAll(async () => {
    otherDir = mkdtempSync(join(tmpdir(), 'tessera-other-database-'));
    const pool = new pg.Pool({ connectionString: await databaseFor(otherDir), max: 1 });
    other = new Kysely({ dialect: new PostgresDialect({ pool }) });
  });
  afterAll(async () => {
    await other?.destroy();
    rmSync(otherDir, { recursive: true, force: true });
  });

  const roomNames = async (eventId: string) =>
    ((await call(listRooms, { eventId })) as { data: { name: string }[] }).data.map((r) => r.name);

  it('shows a change while a transaction of another database that began before it still runs', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const elsewhere = openTransaction(other);
    await elsewhere.began;
    try {
      await call(createRoom, { eventId, name: 'Hall A' });
      expect(await roomNames(eventId)).toEqual(['Hall A']);
    } finally {
      elsewhere.release.fire();
      await elsewhere.done;
    }
  });

  it('shows a snapshot’s changes when a transaction of another database running at its opening ends before its first page', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const elsewhere = openTransaction(other);
    await elsewhere.began;
    let snapshot: ReadSnapshot | undefined;
    try {
      await call(createRoom, { eventId, name: 'Hall C' });
      snapshot = await postgresSnapshots(db())();
    } finally {
      elsewhere.release.fire();
      await elsewhere.done;
    }
    // Ended now, so the sessions read at the page would no longer say whose it was; the snapshot's
    // were read when it opened.
    const { data } = (await invoke(listRooms, { ...ctx(), db: snapshot.db }, { eventId })).data;
    await snapshot.release();
    expect(data.map((r) => r.name)).toEqual(['Hall C']);
  });

  it('shows a page’s changes when a transaction of another database running at its first statement ends before its page is read', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const elsewhere = openTransaction(other);
    await elsewhere.began;
    await call(createRoom, { eventId, name: 'Hall D' });
    const names = await readOnlyTransaction(db(), ctx().services.log, async (trx) => {
      // As invoke's read of a page begins; then the read's first statement (the event's) fixes the
      // snapshot while the other database's transaction still runs, and it ends before the page.
      await sessionsWithSnapshot(trx);
      await sql`select 1`.execute(trx);
      elsewhere.release.fire();
      await elsewhere.done;
      const { data } = (await invoke(listRooms, { ...ctx(), db: trx }, { eventId })).data;
      return data.map((r: { name: string }) => r.name);
    });
    expect(names).toEqual(['Hall D']);
  });

  it('holds a change back while a transaction of this database that began before it still runs', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const here = openTransaction(db());
    await here.began;
    try {
      await call(createRoom, { eventId, name: 'Hall B' });
      // Its transaction may still write a row below this change: the page waits for it.
      expect(await roomNames(eventId)).toEqual([]);
    } finally {
      here.release.fire();
      await here.done;
    }
    expect(await roomNames(eventId)).toEqual(['Hall B']);
  });
});
