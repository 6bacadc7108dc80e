// PostgreSQL: statements whose answer nobody reads (`begin`, `set local`) travel with the statement
// after them (db/deferred-statements.ts), in one round trip: in one simple-protocol string when that
// statement takes no parameters (commit), else written ahead of it in pipeline mode. Inside a
// transaction, so does an insert whose answer its caller never reads (sendWithNext: the outbox's),
// and the write queue's change position. What reaches the server is recorded below the deferral, as
// the server sees it, by round trip: a round trip starts when the connection sends a statement while
// every statement it sent before is answered (its caller has the answer).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferringStatements, sendWithNext } from '../../db/deferred-statements';
import { takeChangePosition } from '../../db/sequence';
import { keepPrepared, sendingStatements } from '../../db/server-statements';
import { databaseFor, onPostgres } from '../support/test-store';

describe.runIf(onPostgres)('statements whose answer nobody reads sent with the next (PostgreSQL)', () => {
  let dir: string;
  let pool: pg.Pool;
  let db: Kysely<any>;
  const sent: string[] = [];
  let roundTrips = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-begin-'));
    pool = new pg.Pool({ connectionString: await databaseFor(dir), max: 1, pipeline: true });
    // Registered first, so it sees what the deferral passes on: each call is one round trip.
    recording(pool, sent, () => {
      roundTrips += 1;
    });
    deferringStatements(pool);
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    await sql`create table if not exists marks (id int primary key)`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the transaction in the round trip of a first statement without parameters', async () => {
    sent.length = 0;
    const ids = await db.transaction().execute(async (trx) => {
      const first = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx);
      const second = await sql<{
        id: string;
      }>`select pg_current_xact_id()::text as id where ${1} = 1`.execute(trx);
      return [first.rows[0]!.id, second.rows[0]!.id];
    });
    expect(sent).toEqual([
      'begin; select pg_current_xact_id()::text as id',
      'select pg_current_xact_id()::text as id where $1 = 1',
      'commit',
    ]);
    // One transaction: both statements have its id.
    expect(ids[0]).toBe(ids[1]);
  });

  it('sends begin in the round trip of a first statement with parameters, and a refusal undoes the transaction', async () => {
    sent.length = 0;
    roundTrips = 0;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into marks (id) values (${7})`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(sent).toEqual(['begin | insert into marks (id) values ($1)', 'rollback']);
    expect(roundTrips).toBe(2);
    const { rows } = await sql`select id from marks where id = 7`.execute(db);
    expect(rows).toEqual([]);
  });

  it.each([
    [
      'without parameters',
      () => sql`insert into marks (id) values (8)`,
      'start transaction isolation level repeatable read read only; insert into marks (id) values (8)',
    ],
    [
      'with parameters',
      () => sql`insert into marks (id) values (${10})`,
      'start transaction isolation level repeatable read read only | insert into marks (id) values ($1)',
    ],
  ])(
    'keeps isolation and access mode when the first statement is %s: a read-only transaction refuses a write',
    async (_, write, first) => {
      sent.length = 0;
      await expect(
        db
          .transaction()
          .setIsolationLevel('repeatable read')
          .setAccessMode('read only')
          .execute((trx) => write().execute(trx)),
      ).rejects.toThrow(/read-only transaction/);
      expect(sent[0]).toBe(first);
    },
  );

  it('sends a transaction’s setting with what follows: with a read with parameters, in the round trip of commit', async () => {
    sent.length = 0;
    roundTrips = 0;
    const settings = await db.transaction().execute(async (trx) => {
      await sql`select 1 where ${1} = 1`.execute(trx);
      await sql`set local enable_sort = off`.execute(trx);
      const during = await sql<{
        s: string;
      }>`select current_setting('enable_sort') as s where ${1} = 1`.execute(trx);
      await sql`set local enable_sort = on`.execute(trx);
      return during.rows[0]!.s;
    });
    expect(settings).toBe('off');
    expect(sent).toEqual([
      'begin | select 1 where $1 = 1',
      "set local enable_sort = off | select current_setting('enable_sort') as s where $1 = 1",
      'set local enable_sort = on; commit',
    ]);
    expect(roundTrips).toBe(3);
  });

  it('runs nothing after a held statement that fails in the same round trip, and answers its error', async () => {
    sent.length = 0;
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`set local enable_sort = banana`.execute(trx);
        await sql`insert into marks (id) values (${9})`.execute(trx);
      }),
    ).rejects.toThrow(/enable_sort/);
    expect(sent[0]).toBe('begin; set local enable_sort = banana | insert into marks (id) values ($1)');
    const { rows } = await sql`select id from marks where id = 9`.execute(db);
    expect(rows).toEqual([]);
  });

  describe('an insert whose answer nobody reads', () => {
    const unreadInsert = 'insert into marks (id) values ($1)';
    beforeAll(() => sendWithNext(unreadInsert));

    it('goes with the commit, in its round trip, and is written', async () => {
      sent.length = 0;
      roundTrips = 0;
      await db.transaction().execute(async (trx) => {
        const answer = await sql`insert into marks (id) values (${11})`.execute(trx);
        expect(answer.rows).toEqual([]);
      });
      expect(sent).toEqual([`begin | ${unreadInsert} | commit`]);
      expect(roundTrips).toBe(1);
      expect((await sql`select id from marks where id = 11`.execute(db)).rows).toEqual([{ id: 11 }]);
    });

    it('fails the commit when it fails, and nothing of the transaction is written', async () => {
      sent.length = 0;
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`insert into marks (id) values (13)`.execute(trx);
          await sql`insert into marks (id) values (${11})`.execute(trx);
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(sent.slice(0, 2)).toEqual([
        'begin; insert into marks (id) values (13)',
        `${unreadInsert} | commit`,
      ]);
      expect((await sql`select id from marks where id = 13`.execute(db)).rows).toEqual([]);
    });

    it('goes with the commit when kept prepared, the first time on a connection (parsed there) and then by its name', async () => {
      const kept = 'insert into marks (id) select $1';
      keepPrepared(kept);
      sendWithNext(kept);
      const named = await namedPool(dir);
      try {
        named.sent.length = 0;
        for (const id of [15, 16])
          await named.db
            .transaction()
            .execute((trx) => sql`insert into marks (id) select ${id}`.execute(trx));
        expect(named.sent).toEqual([
          'begin | insert into marks (id) select $1 | commit',
          'begin | insert into marks (id) select $1 | commit',
        ]);
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_prepared_statements where statement = ${kept}`.execute(named.db);
        expect(rows).toEqual([{ n: 1 }]);
        expect((await sql`select id from marks where id in (15, 16) order by id`.execute(db)).rows).toEqual([
          { id: 15 },
          { id: 16 },
        ]);
      } finally {
        await named.db.destroy();
      }
    });

    it('goes at once outside a transaction', async () => {
      sent.length = 0;
      await sql`insert into marks (id) values (${14})`.execute(db);
      expect(sent).toEqual([unreadInsert]);
      expect((await sql`select id from marks where id = 14`.execute(db)).rows).toEqual([{ id: 14 }]);
    });
  });

  it('gives a connection back without what its last user held and never followed', async () => {
    const client = await pool.connect();
    await client.query('begin');
    client.release();
    sent.length = 0;
    // max 1: the same connection. Outside a transaction, each statement has its own id.
    const a = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(db);
    const b = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(db);
    expect(sent).toEqual([
      'select pg_current_xact_id()::text as id',
      'select pg_current_xact_id()::text as id',
    ]);
    expect(a.rows[0]!.id).not.toBe(b.rows[0]!.id);
  });

  it('sends nothing for a transaction that ran nothing: it was never opened on the server', async () => {
    sent.length = 0;
    roundTrips = 0;
    const answered = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async () => 'from memory');
    await expect(
      db.transaction().execute(async () => {
        throw new Error('refused before any statement');
      }),
    ).rejects.toThrow('refused before any statement');
    expect(answered).toBe('from memory');
    expect(sent).toEqual([]);
    expect(roundTrips).toBe(0);
    // The connection goes on as before: the next transaction opens and ends on the server.
    const ids = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(trx);
      return rows[0]!.id;
    });
    expect(ids).toMatch(/^\d+$/);
    expect(sent).toEqual(['begin; select pg_current_xact_id()::text as id', 'commit']);
  });

  describe('the write queue’s change position', () => {
    const position = 'select pg_current_xact_id()';
    const plainRead = 'select id from marks where id = $1';

    it('goes with the first statement, and its caller learns when the server ran it', async () => {
      sent.length = 0;
      roundTrips = 0;
      let taken = false;
      await db.transaction().execute(async (trx) => {
        const position = await takeChangePosition(trx as never);
        void position.taken.then(() => {
          taken = true;
        });
        // Not sent yet: nothing followed it.
        await Promise.resolve();
        expect(taken).toBe(false);
        await sql`select id from marks where id = ${1}`.execute(trx);
        await position.taken;
      });
      expect(sent).toEqual([`begin; ${position} | ${plainRead}`, 'commit']);
      expect(roundTrips).toBe(2);
    });

    it('goes with a statement that may wait on a lock, and is taken while that one waits', async () => {
      await sql`insert into marks (id) values (21) on conflict do nothing`.execute(db);
      const holder = new pg.Client({ connectionString: await databaseFor(dir) });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from marks where id = 21 for update');
        sent.length = 0;
        let locked = false;
        const waiting = db.transaction().execute(async (trx) => {
          const { taken } = await takeChangePosition(trx as never);
          const locking = sql`select id from marks where id = ${21} for update`.execute(trx).then(() => {
            locked = true;
          });
          // The position is the server's while the locking read still waits.
          await taken;
          expect(locked).toBe(false);
          await locking;
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(locked).toBe(false);
        await holder.query('commit');
        await waiting;
        expect(sent).toEqual([
          `begin; ${position} | select id from marks where id = $1 for update`,
          'commit',
        ]);
      } finally {
        await holder.end();
      }
    });

    it('goes alone when the first statement does not follow at once: a write awaiting something else holds up no other', async () => {
      sent.length = 0;
      roundTrips = 0;
      await db.transaction().execute(async (trx) => {
        const { taken } = await takeChangePosition(trx as never);
        // As a receiver's address looked up before the write reads anything.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await taken;
        expect(sent).toEqual([`begin; ${position}`]);
        await sql`select id from marks where id = ${1}`.execute(trx);
      });
      expect(sent).toEqual([`begin; ${position}`, plainRead, 'commit']);
      expect(roundTrips).toBe(3);
    });

    it('is settled without a round trip when the transaction ends before its first statement', async () => {
      sent.length = 0;
      roundTrips = 0;
      await expect(
        db.transaction().execute(async (trx) => {
          const { taken } = await takeChangePosition(trx as never);
          void taken.then(() => {});
          throw new Error('refused before any statement');
        }),
      ).rejects.toThrow('refused before any statement');
      let taken!: Promise<void>;
      await db.transaction().execute(async (trx) => {
        ({ taken } = await takeChangePosition(trx as never));
      });
      await taken;
      expect(sent).toEqual([]);
      expect(roundTrips).toBe(0);
    });
  });

  it('leaves statements outside a transaction alone', async () => {
    sent.length = 0;
    const a = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(db);
    const b = await sql<{ id: string }>`select pg_current_xact_id()::text as id`.execute(db);
    expect(sent).toHaveLength(2);
    expect(a.rows[0]!.id).not.toBe(b.rows[0]!.id);
  });
});

/** A pool as the service opens one (kept statements by name, then the deferral), recording what is sent. */
async function namedPool(dataDir: string): Promise<{ db: Kysely<any>; sent: string[] }> {
  const sent: string[] = [];
  const pool = new pg.Pool({ connectionString: await databaseFor(dataDir), max: 1, pipeline: true });
  recording(pool, sent);
  sendingStatements(pool);
  deferringStatements(pool);
  return { db: new Kysely({ dialect: new PostgresDialect({ pool }) }), sent };
}

/**
 * Records what each connection of the pool sends, by round trip (the statements of one joined by
 * " | "), and counts the round trips: a statement sent while every one before it is answered (its
 * promise settled) starts one. Registered first, it sees what the wrappers registered after it pass on.
 */
function recording(pool: pg.Pool, sent: string[], roundTrip: () => void = () => {}): void {
  pool.on('connect', (client) => {
    const query = client.query;
    let unanswered = 0;
    client.query = ((...args: unknown[]) => {
      const [config] = args as [string | { text: string }];
      const text = typeof config === 'string' ? config : config.text;
      if (unanswered === 0 || sent.length === 0) {
        sent.push(text);
        roundTrip();
      } else sent[sent.length - 1] += ` | ${text}`;
      unanswered += 1;
      const answer = (query as (...a: unknown[]) => unknown).apply(client, args);
      // Answered when its caller learns the answer: in pipeline mode a failure is answered at the
      // server's ErrorResponse, which may reach the client in a read of its own before the
      // ReadyForQuery that follows it, and the caller may send its rollback in between.
      const answered = () => {
        unanswered -= 1;
      };
      if (answer instanceof Promise) answer.then(answered, answered);
      return answer;
    }) as typeof client.query;
  });
}
