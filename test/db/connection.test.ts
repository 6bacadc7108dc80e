// The connection's speed machinery (db/connect.ts, db/checkpointer.ts) must not change what a
// query answers: rows come back as the same objects better-sqlite3 would make (a name selected
// twice keeps its last column), and checkpoints on their own thread really move the log's pages
// into the database file, which the writer alone leaves for much later.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connect';

const dir = mkdtempSync(join(tmpdir(), 'tessera-connection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function createFiller(file: string): Promise<void> {
  const opened = openDatabase(file);
  await sql`create table filler (id integer primary key, text text not null)`.execute(opened.db);
  await opened.close();
}

describe('rows', () => {
  it('come back as better-sqlite3 makes them: every column, types kept, a repeated name keeps its last column', async () => {
    const file = join(dir, 'rows.db');
    const { db, close } = openDatabase(file);
    await sql`create table a (id integer primary key, name text, score real, data blob)`.execute(db);
    await sql`create table b (id integer primary key, name text)`.execute(db);
    await sql`insert into a values (1, 'first', 1.5, x'0102'), (2, null, null, null)`.execute(db);
    await sql`insert into b values (1, 'joined')`.execute(db);
    const ours = (await sql`select a.*, b.name from a left join b on b.id = a.id order by a.id`.execute(db))
      .rows;
    await close();
    const plain = new SqliteDatabase(file);
    const theirs = plain.prepare('select a.*, b.name from a left join b on b.id = a.id order by a.id').all();
    plain.close();
    expect(ours).toEqual(theirs);
    expect(ours[0]).toEqual({ id: 1, name: 'joined', score: 1.5, data: Buffer.from([1, 2]) });
    expect(Object.keys(ours[1] as object)).toEqual(['id', 'name', 'score', 'data']);
  });

  it('answer inserts with returning, and statements that change rows count them', async () => {
    const { db, close } = openDatabase(join(dir, 'returning.db'));
    await sql`create table t (id integer primary key autoincrement, v text)`.execute(db);
    const inserted = await db
      .insertInto('t' as never)
      .values({ v: 'x' } as never)
      .returning('id' as never)
      .executeTakeFirst();
    expect(inserted).toEqual({ id: 1 });
    const updated = await sql`update t set v = 'y'`.execute(db);
    expect(Number(updated.numAffectedRows)).toBe(1);
    await close();
  });
});

describe('checkpoints on their own thread', () => {
  const pageBytes = 4096;
  const write = async (file: string, background: boolean) => {
    await createFiller(file);
    const opened = openDatabase(
      file,
      background ? { backgroundCheckpoints: { warn: () => {}, error: () => {} } } : {},
    );
    const before = statSync(file).size;
    // About 300 pages: under the 1,000 after which a writer would checkpoint by itself.
    await opened.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 300; i += 1)
        await sql`insert into filler (text) values (${'x'.repeat(pageBytes - 200)})`.execute(trx);
    });
    return { opened, before };
  };

  it('copy the log into the database file while the writer goes on', async () => {
    const file = join(dir, 'background.db');
    const { opened, before } = await write(file, true);
    // Wait for the whole copy, not its first pages: the file grows page by page while the
    // thread copies, and a loaded machine (CI) was caught half-way.
    const copied = before + 250 * pageBytes;
    const deadline = Date.now() + 80_000;
    while (statSync(file).size <= copied && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(statSync(file).size).toBeGreaterThan(copied);
    await opened.close();
  });

  it('without the thread, the same writes stay in the log', async () => {
    const file = join(dir, 'writer-only.db');
    const { opened, before } = await write(file, false);
    await new Promise((r) => setTimeout(r, 300));
    expect(statSync(file).size).toBe(before);
    await opened.close();
  });
});
