// A read on PostgreSQL answers once it has read, before its read-only commit
// (core/platform/pipeline/read-only-transaction.ts). Proven by a commit that cannot succeed: the
// reading connection is ended from outside once the reads are done, so a read that waited for its
// commit would fail; this one answers what it read and logs the commit's failure. The connection's
// own error event is heard (db/connect.ts connectionLost) and the pool opens another.
// PostgreSQL only (`npm run test:postgres`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../core/platform/log';
import { readOnlyTransaction } from '../../core/platform/pipeline/read-only-transaction';
import { type OpenedDatabase, openDatabase } from '../../db/connect';
import { databaseFor, onPostgres } from '../support/test-store';

describe.skipIf(!onPostgres)('a read-only transaction on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-read-commit-'));
  let opened: OpenedDatabase;
  let admin: pg.Client;
  const warnings: string[] = [];
  const lost: Error[] = [];
  const log: Log = { info: () => {}, warn: (_details, message) => warnings.push(message), error: () => {} };

  beforeAll(async () => {
    const url = (await databaseFor(dir)) as string;
    opened = openDatabase(url, { connectionLost: (error) => lost.push(error) });
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await opened?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Ends the backend `pid` and waits until it is gone. */
  const endBackend = async (pid: number) => {
    await admin.query('select pg_terminate_backend($1)', [pid]);
    for (;;) {
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where pid = $1', [
        pid,
      ]);
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('answers what it read though its commit then fails, and logs that', async () => {
    const answer = await readOnlyTransaction(opened.db, log, async (trx) => {
      const { rows } = await sql<{ pid: number; mode: string }>`
        select pg_backend_pid() as pid, current_setting('transaction_read_only') as mode`.execute(trx);
      await endBackend(rows[0]!.pid);
      return rows[0]!.mode;
    });
    expect(answer).toBe('on');
    await expect.poll(() => warnings).toEqual(['a read answered, then its read-only commit failed']);
    // The ended connection's own error is heard (unheard, it would end the process): the server's
    // notice that it ended the session, or, when the commit was already on its way, the reset, or
    // the driver's word that the socket closed before either was read (a loaded machine).
    const heard = lost.map((error) => (error as Error & { code?: string }).code ?? error.message);
    expect(heard.length).toBeGreaterThan(0);
    for (const said of heard)
      expect(['57P01', 'ECONNRESET', 'EPIPE', 'Connection terminated unexpectedly']).toContain(said);
    // The pool let the ended connection go: the next read has a working one.
    const next = await readOnlyTransaction(opened.db, log, async (trx) => {
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(trx);
      return rows[0]!.one;
    });
    expect(next).toBe(1);
  });

  it('fails as its reads fail, and sees one snapshot', async () => {
    await expect(
      readOnlyTransaction(opened.db, log, async (trx) => {
        await sql`select 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    const isolation = await readOnlyTransaction(opened.db, log, async (trx) => {
      const { rows } = await sql<{
        level: string;
      }>`select current_setting('transaction_isolation') as level`.execute(trx);
      return rows[0]!.level;
    });
    expect(isolation).toBe('repeatable read');
  });
});
