// The connections a process keeps from its writers on PostgreSQL (db/connect.ts): the dispatcher
// and the mail sender each hold one for as long as they run (their liveness lock), and reads must
// still find one while every write in flight waits. The writes here all wait on a door's row that a
// transaction of the test's own holds; a read is then asked for, and the lock let go only once it
// has answered: were every connection taken, the read (and so the test) would wait forever.
// A server also opens all its connections at its start and keeps them while idle (an on-sale's
// first requests find them open, their backends warm). PostgreSQL only (`npm run test:postgres`).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectionsKeptFromWriters, defaultConnections } from '../../db/connect';
import { seedDoorEvent } from '../support/doors';
import { startTestServer } from '../support/server';
import { startSmtpServer } from '../support/smtp';
import { databaseFor, onPostgres } from '../support/test-store';

/** Write transactions one process keeps in flight at the default. */
const lanes = defaultConnections - connectionsKeptFromWriters;

/** The connections open to the test's database, but `watcher`'s own. */
async function openConnections(watcher: pg.Client): Promise<number> {
  await watcher.query('select pg_stat_clear_snapshot()');
  const { rows } = await watcher.query(
    `select count(*)::int as n from pg_stat_activity
     where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return rows[0].n;
}

describe.skipIf(!onPostgres)('a server on PostgreSQL', () => {
  it('opens all its connections at its start and keeps them open while idle', async () => {
    const t = await startTestServer();
    const watcher = new pg.Client({ connectionString: await databaseFor(t.dataDir) });
    await watcher.connect();
    try {
      // No request has been made: the start opened them.
      while ((await openConnections(watcher)) < defaultConnections)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await openConnections(watcher)).toBe(defaultConnections);
      // pg's pool ends a connection idle for 10 s unless it is among those it keeps.
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expect(await openConnections(watcher)).toBe(defaultConnections);
    } finally {
      await watcher.end().catch(() => undefined);
      await t.close();
    }
  }, 60_000);
});

describe.skipIf(!onPostgres)('connections kept from writers on PostgreSQL', () => {
  it('answers a read while every write in flight waits, with the dispatcher and the mail sender running', async () => {
    const smtp = await startSmtpServer();
    const t = await startTestServer({
      env: { TESSERA_SMTP_URL: smtp.url, TESSERA_MAIL_FROM: 'tickets@kept.test' },
    });
    const holder = new pg.Client({ connectionString: await databaseFor(t.dataDir) });
    await holder.connect();
    try {
      expect(t.server.mailSender).not.toBeNull();
      const { workspaceId } = await t.workspace('Kept connections');
      const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
      const event = await seedDoorEvent(t, workspaceId, key);
      const people = await event.register(event.general, lanes + 4);
      // The small room has a capacity: a welcome there updates the door's row.
      const door = event.doors.small;
      await holder.query('begin');
      await holder.query('select id from doors where id = $1 for update', [door]);

      const scans = people.map((attendeeId) =>
        t.api(`/events/${event.eventId}/attendees/${attendeeId}/check-in`, {
          key,
          method: 'POST',
          body: { doorId: door },
        }),
      );
      // Every lane holds a write that waits on the door (the rest queue behind them in the process).
      for (;;) {
        // Activity is read once a transaction unless its snapshot is cleared: the holder is in one.
        await holder.query('select pg_stat_clear_snapshot()');
        const { rows } = await holder.query(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        if (rows[0].n >= lanes) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const read = await t.api(`/events/${event.eventId}/check-ins/summary`, { key });
      expect(read.status).toBe(200);

      await holder.query('commit');
      const answers = await Promise.all(scans);
      expect(answers.map((a) => a.body.result ?? a.body.code).sort()).toEqual(
        [...Array(3).fill('welcome'), ...Array(people.length - 3).fill('full')].sort(),
      );
    } finally {
      await holder.end().catch(() => undefined);
      await t.close();
      await smtp.close();
    }
  });
});
