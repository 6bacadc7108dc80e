// Erasure leaves no copy a reader of the database's files could find: the rows say erased, and the
// bytes they held are gone from the SQLite file and its write-ahead log (freed space overwritten,
// the log emptied), while the server that wrote them keeps running. On PostgreSQL the command
// vacuums the tables it changed, so their dead row versions go.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import {
  addUnlimitedTicketType,
  call,
  endAll,
  openDataDir,
  type Spawned,
  serve,
  tessera,
  workspaceWithKey,
} from '../support/spawned';
import { onPostgres } from '../support/test-store';

describe('erasure and the database files', () => {
  let dir: string;
  let server: Spawned;
  let workspaceId: string;
  let key: string;
  const email = 'zebulon.quixotic.erase@example.org';
  const names = ['Zebulonious', 'Quixoticson', 'Xanthippeia'];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-erasure-bytes-'));
    ({ workspaceId, key } = await workspaceWithKey(dir, 'Erasure bytes'));
    server = await serve(dir);
    const made = await call(server, '/events', { key, method: 'POST', body: eventBody() });
    const eventId = made.body.eventId as string;
    const ticketTypeId = await addUnlimitedTicketType(dir, eventId);
    // Among others on the same pages (a page alone would be rewritten whole), registered and then
    // renamed: the row is written twice, so an older version of it was freed too.
    const others = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ticketTypeId,
        firstName: `Other${i}`,
        lastName: `Person${i}`,
        email: `other.person.${i}.${n}@example.org`,
      }));
    const attendees = [
      ...others(24),
      { ticketTypeId, firstName: names[0], lastName: names[1], email },
      ...others(25),
    ];
    const registered = await call(server, `/events/${eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees, buyerName: `${names[0]} ${names[1]}`, buyerEmail: email },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const attendeeId = registered.body.attendees[24].attendeeId as string;
    const renamed = await call(server, `/events/${eventId}/attendees/${attendeeId}`, {
      key,
      method: 'PATCH',
      body: { firstName: names[2] },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });

  afterAll(async () => {
    await endAll();
    rmSync(dir, { recursive: true, force: true });
  });

  /** How often the text appears in the SQLite file and its log. */
  function occurrences(text: string): number {
    let n = 0;
    for (const file of ['tessera.db', 'tessera.db-wal']) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path);
      for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + 1)) n += 1;
    }
    return n;
  }

  it('leaves neither the email nor the names in the SQLite file or its log, beside the running server', async () => {
    if (onPostgres) return;
    expect(occurrences(email), 'the person is in the files before').toBeGreaterThan(0);
    const counts = await tessera([
      'person',
      'erase',
      '--workspace',
      workspaceId,
      '--email',
      email,
      '--data',
      dir,
    ]);
    expect(counts.attendees).toBe(1);
    expect(occurrences(email)).toBe(0);
    for (const name of names) expect(occurrences(name), name).toBe(0);
    // The server goes on writing to the same file afterwards.
    const me = await call(server, '/me', { key });
    expect(me.status).toBe(200);
  });

  it('vacuums the tables it changed on PostgreSQL', async () => {
    if (!onPostgres) return;
    await tessera(['person', 'erase', '--workspace', workspaceId, '--email', email, '--data', dir]);
    const { db, close } = await openDataDir(dir);
    try {
      const { rows } = await sql<{ relname: string; last_vacuum: Date | null }>`
        select relname, last_vacuum from pg_stat_user_tables
        where relname in ('attendees', 'orders', 'outbox', 'attendee_search_values')`.execute(db);
      expect(rows).toHaveLength(4);
      for (const row of rows) expect(row.last_vacuum, row.relname).not.toBeNull();
    } finally {
      await close();
    }
  });
});
