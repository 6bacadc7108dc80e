// SQLite's reads that can take long run on a thread of their own (db/reading-thread.ts): the
// server's thread goes on while one runs, the rows are the ones the server's connection gives, the
// connections there can only read, an error is the statement's, and a search reads there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchAttendees } from '../../core/attendees/search-attendees';
import { invoke } from '../../core/platform/pipeline/invoke';
import { type OpenedDatabase, openDatabase } from '../../db/connect';
import { openServices } from '../../src/services';
import { everythingKeyContext } from '../support/key-context';
import { sampleIds } from '../support/sales';
import { onPostgres } from '../support/test-store';

const dir = mkdtempSync(join(tmpdir(), 'tessera-reading-thread-'));
let opened: OpenedDatabase;

beforeAll(async () => {
  opened = openDatabase(join(dir, 'reading.db'));
  await sql`create table t (id integer primary key, name text, score real, data blob)`.execute(opened.db);
  await sql`insert into t values (1, 'first', 1.5, x'0102'), (2, null, null, null)`.execute(opened.db);
});
afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

const aside = () => {
  if (!opened.readsAside) throw new Error('SQLite has a reading thread');
  return opened.readsAside;
};

it.skipIf(onPostgres)(
  'answers the rows the server’s connection gives, blobs and parameters included',
  async () => {
    const query = sql`select t.*, t.name as name from t where id >= ${1} or data = ${Buffer.from([1, 2])} order by id`;
    const theirs = (await query.execute(opened.db)).rows;
    const ours = (await query.execute(aside())).rows;
    expect(ours).toEqual(theirs);
    expect(ours[0]).toEqual({ id: 1, name: 'first', score: 1.5, data: Buffer.from([1, 2]) });
    expect(Buffer.isBuffer((ours[0] as { data: unknown }).data)).toBe(true);
    // A write committed by the server's connection is in the next read there.
    await sql`insert into t (id, name) values (3, 'third')`.execute(opened.db);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(aside())).rows).toEqual([{ n: 3 }]);
  },
);

it.skipIf(onPostgres)('leaves the server’s thread free while a read runs there', async () => {
  let turns = 0;
  let done = false;
  // Long enough that a read on this thread would let no turn of the event loop pass until it ended.
  const read = sql<{ n: number }>`
    with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000000)
    select count(*) as n from c`
    .execute(aside())
    .finally(() => {
      done = true;
    });
  while (!done) {
    await nextTurn();
    turns += 1;
  }
  expect((await read).rows).toEqual([{ n: 3000000 }]);
  expect(turns).toBeGreaterThan(10);
});

it.skipIf(onPostgres)('only reads, and answers a statement’s error as its own', async () => {
  await expect(sql`insert into t (id) values (9)`.execute(aside())).rejects.toMatchObject({
    code: 'SQLITE_READONLY',
  });
  await expect(sql`select x from nowhere`.execute(aside())).rejects.toThrow(/no such table: nowhere/);
  expect((await sql<{ n: number }>`select count(*) as n from t`.execute(aside())).rows).toEqual([{ n: 3 }]);
});

it.skipIf(onPostgres)('runs a search’s reads there', async () => {
  const served = await openServices({ dataDir: join(dir, 'served'), ratePerMinute: 1_000_000 });
  try {
    const { services } = served;
    const { ctx, workspaceId } = await everythingKeyContext(services, 'Reading thread', { sample: true });
    const eventId = sampleIds(workspaceId).event('summit');
    const someone = await services.db
      .selectFrom('attendees')
      .select(['id', 'last_name'])
      .where('event_id', '=', eventId)
      .where('erased', '=', 0)
      .executeTakeFirstOrThrow();
    const kinds: string[] = [];
    const seeing: KyselyPlugin = {
      transformQuery: (args) => {
        kinds.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    services.readsAside = services.readsAside!.withPlugin(seeing);
    const found = (await invoke(searchAttendees, ctx, { eventId, q: someone.last_name!, limit: 100 })).data;
    expect(found.data.map((a) => a.attendeeId)).toContain(someone.id);
    expect(kinds).toContain('SelectQueryNode');
  } finally {
    await served.close();
  }
});
