// Several `tessera serve` processes on one PostgreSQL database, as a deployment behind a proxy runs
// them: a cursor made by one pages on in the other, and both sign webhooks with the secret made in
// one (the same TESSERA_SECRET_KEY); a key's rate
// limit holds across both; parallel registrations through both never oversell; parallel scans
// through both welcome a person once; an Idempotency-Key sent to both runs once; the dispatchers
// of both send each delivery once; and the change feed never skips a change committed late.
// Needs PostgreSQL's server binaries; without them it skips, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insideDoor } from '../../core/checkin/door-inside';
import { newId } from '../../core/platform/ids';
import { WriteBatcher } from '../../core/platform/storage/write-batch';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { nextChangeSeq } from '../../db/sequence';
import { type Cluster, startCluster } from '../../scripts/postgres-cluster.mjs';
import { eventBody } from '../support/fixtures';
import { someoneWaitsOnALock } from '../support/lock-waits';
import { postgresHere } from '../support/postgres';
import { type Receiver, startReceiver } from '../support/receiver';
import { insertTicketType, person } from '../support/sales';
import { signal } from '../support/signal';
import { call, endAll, type Spawned, serve, tessera, workspaceWithKey } from '../support/spawned';

const available = postgresHere('the several-processes test');

/** A moment one side of a test waits for and the other announces. */
describe.skipIf(!available)('two processes on one PostgreSQL database', () => {
  let cluster: Cluster;
  let env: Record<string, string>;
  let a: Spawned;
  let b: Spawned;
  let key: string;
  let workspaceId: string;
  let db: Db;
  let closeDb: () => Promise<void>;
  let receiver: Receiver;
  const dirs = [mkdtempSync(join(tmpdir(), 'several-a-')), mkdtempSync(join(tmpdir(), 'several-b-'))];

  beforeAll(async () => {
    cluster = await startCluster();
    env = {
      TESSERA_DATABASE_URL: cluster.url,
      // Shared by every process: cursors and webhook secrets made by one are good in the others.
      TESSERA_SECRET_KEY: 'several-processes-master-key-0123456789',
      TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
    };
    // Both start at once on the empty database: one makes the tables and the demonstration
    // workspace, the other waits for it (the migrations' lock, then the demonstration's).
    [a, b] = await Promise.all([serve(dirs[0]!, env), serve(dirs[1]!, env)]);
    ({ workspaceId, key } = await workspaceWithKey(dirs[0]!, 'Several', env));
    ({ db, close: closeDb } = openDatabase(cluster.url));
    await migrateToLatest(db);
    receiver = await startReceiver();
  }, 300_000);

  afterAll(async () => {
    await endAll();
    await closeDb?.();
    await receiver?.close();
    cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** One of the two processes, taking turns, as a proxy spreads calls. */
  const either = (i: number) => (i % 2 === 0 ? a : b);

  async function newEvent(capacity: number | null = null) {
    const made = await call(a, '/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const eventId = made.body.eventId as string;
    return { eventId, ticketTypeId: await insertTicketType(db, eventId, { capacity }) };
  }

  async function registerVia(s: Spawned, eventId: string, ticketTypeId: string, n = 1) {
    return call(s, `/events/${eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees: Array.from({ length: n }, () => person(ticketTypeId)) },
    });
  }

  it('pages on in one process with a cursor the other made', async () => {
    const { eventId, ticketTypeId } = await newEvent();
    expect((await registerVia(a, eventId, ticketTypeId, 5)).status).toBe(201);
    const first = await call(a, `/events/${eventId}/attendees?limit=2`, { key });
    const rest = await call(b, `/events/${eventId}/attendees?limit=10&cursor=${first.body.nextCursor}`, {
      key,
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const ids = [...first.body.data, ...rest.body.data].map((x: { attendeeId: string }) => x.attendeeId);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
  });

  it('counts a key’s calls in both processes against its one limit', async () => {
    const limited = await tessera(
      [
        'key',
        'create',
        '--workspace',
        workspaceId,
        '--name',
        'limited',
        '--preset',
        'everything',
        '--expires',
        'never',
        '--rate',
        '10',
        '--data',
        dirs[0]!,
      ],
      env,
    );
    const answers = [];
    for (let i = 0; i < 14; i += 1) answers.push(await call(either(i), '/me', { key: limited.key }));
    expect(answers.map((r) => r.status)).toEqual([...Array(10).fill(200), ...Array(4).fill(429)]);
    expect(answers[9]!.headers.get('ratelimit')).toMatch(/r=0;/);
    expect(answers[3]!.headers.get('ratelimit')).toMatch(/r=6;/);
    expect(Number(answers[13]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('never oversells: of 40 registrations through both at once, exactly the 12 places are taken', async () => {
    const { eventId, ticketTypeId } = await newEvent(12);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => registerVia(either(i), eventId, ticketTypeId)),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(12);
    for (const refused of answers.filter((r) => r.status !== 201)) expect(refused.body.code).toBe('soldOut');
    const type = await db
      .selectFrom('ticket_types')
      .select('taken')
      .where('id', '=', ticketTypeId)
      .executeTakeFirstOrThrow();
    expect(type.taken).toBe(12);
    const people = await db
      .selectFrom('attendees')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(people.n).toBe(12);
  });

  it('welcomes each person once when both processes scan them at the same moment', async () => {
    const { eventId, ticketTypeId } = await newEvent();
    const door = await call(a, `/events/${eventId}/doors`, {
      key,
      method: 'POST',
      body: { name: 'Main entrance', main: true },
    });
    expect(door.status, JSON.stringify(door.body)).toBe(201);
    const registered = await registerVia(a, eventId, ticketTypeId, 10);
    const attendeeIds = registered.body.attendees.map(
      (x: { attendeeId: string }) => x.attendeeId,
    ) as string[];
    const scans = await Promise.all(
      attendeeIds.flatMap((id) =>
        Array.from({ length: 4 }, (_, i) =>
          call(either(i), `/events/${eventId}/attendees/${id}/check-in`, { key, method: 'POST', body: {} }),
        ),
      ),
    );
    for (const s of scans) expect(s.status, JSON.stringify(s.body)).toBe(200);
    const results = scans.map((s) => s.body.result as string);
    expect(results.filter((r) => r === 'welcome')).toHaveLength(10);
    expect(results.filter((r) => r === 'again')).toHaveLength(30);
    expect(await insideDoor(db, door.body.doorId)).toBe(10);
  });

  it('runs a request sent to both with one Idempotency-Key once', async () => {
    const { eventId, ticketTypeId } = await newEvent();
    const body = { attendees: [person(ticketTypeId)] };
    const headers = { 'idempotency-key': newId() };
    const answers = await Promise.all(
      [a, b, a, b].map((s) =>
        call(s, `/events/${eventId}/attendees`, { key, method: 'POST', body, headers }),
      ),
    );
    const created = answers.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    // The others are the same answer replayed, or 409 while the first was still running.
    for (const r of answers)
      if (r.status !== 201) expect(r.body.code, JSON.stringify(r.body)).toBe('idempotencyKeyInUse');
    expect(new Set(created.map((r) => r.body.orderId)).size).toBe(1);
    const orders = await db.selectFrom('orders').select('id').where('event_id', '=', eventId).execute();
    expect(orders).toHaveLength(1);
  });

  it('sends each delivery once, with the dispatchers of both at work', async () => {
    const made = await call(a, '/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url('/both'), eventTypes: ['attendee.registered'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { eventId, ticketTypeId } = await newEvent();
    const people = 120;
    await Promise.all(
      Array.from({ length: people / 10 }, (_, i) => registerVia(either(i), eventId, ticketTypeId, 10)),
    );
    await receiver.waitFor(people, { path: '/both', timeoutMs: 120_000 });
    // Time for a second sending of anything, were both dispatchers to take one delivery.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const got = receiver.received.filter((r) => r.path === '/both');
    const ids = got.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(people);
    expect(new Set(ids).size).toBe(people);
    // A test message asked of the other process than the one that made the endpoint.
    const tested = await call(b, `/webhooks/${made.body.webhook.webhookId}/test`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(tested.status, JSON.stringify(tested.body)).toBeLessThan(300);
    const withTest = await receiver.waitFor(people + 1, { path: '/both', timeoutMs: 60_000 });
    expect(withTest).toHaveLength(people + 1);
    // Whichever process sent it, it is signed with the secret from creation: both decrypt it with
    // the one TESSERA_SECRET_KEY.
    const verifier = new Webhook(made.body.secret as string);
    for (const r of withTest) {
      const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
      expect(() => verifier.verify(r.body, headers)).not.toThrow();
    }
  });

  it('runs a write again when the database ends it as a deadlock’s victim', async () => {
    const { eventId } = await newEvent();
    const [first, second] = [await insertTicketType(db, eventId), await insertTicketType(db, eventId)];
    const rename = (trx: Db, id: string, name: string) =>
      trx.updateTable('ticket_types').set({ name }).where('id', '=', id).execute();
    // Another transaction (another process's) holds the first row and then waits for the second,
    // which the batch holds; the batch then asks for the first, closing the circle. The other looks
    // for a deadlock only after a minute, so the batch (PostgreSQL's default, a second) is the one
    // the database ends. Lined up by what waits on what (the other's own backend), not by time.
    const otherHasFirst = signal();
    const batchHasSecond = signal();
    let otherPid = 0;
    const other = db.transaction().execute(async (trx) => {
      await sql`set local deadlock_timeout = '60s'`.execute(trx);
      otherPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
      await rename(trx, first!, 'Other');
      otherHasFirst.fire();
      await batchHasSecond.fired;
      await rename(trx, second!, 'Other');
    });
    await otherHasFirst.fired;
    let attempts = 0;
    const writes = new WriteBatcher(db);
    await writes.run(async (trx) => {
      attempts += 1;
      await rename(trx, second!, 'Batch');
      if (attempts === 1) {
        batchHasSecond.fire();
        // The two processes' servers share this database: it is the other transaction's wait.
        await someoneWaitsOnALock(db, otherPid);
      }
      await rename(trx, first!, 'Batch');
    });
    await other;
    expect(attempts).toBe(2);
    const names = await db
      .selectFrom('ticket_types')
      .select('name')
      .where('id', 'in', [first!, second!])
      .execute();
    expect(names.map((n) => n.name)).toEqual(['Batch', 'Batch']);
  });

  describe('the change feed', () => {
    /** Holds a write open in a transaction of its own until released. */
    function holdOpen(write: (trx: Db) => Promise<void>) {
      const written = signal();
      const released = signal();
      const done = db.transaction().execute(async (trx) => {
        await write(trx);
        written.fire();
        await released.fired;
      });
      const commit = async () => {
        released.fire();
        await done;
      };
      return { ready: written.fired, commit };
    }

    it('shows a change only once every write begun before it has ended, so a cursor never passes one committed late', async () => {
      const { eventId, ticketTypeId } = await newEvent();
      const registered = await registerVia(a, eventId, ticketTypeId, 5);
      const people = registered.body.attendees.map(
        (x: { attendeeId: string; firstName: string }) => `${x.attendeeId}:${x.firstName}`,
      ) as string[];
      const [first, second] = people.map((p) => p.split(':')[0]!);
      const list = (s: Spawned, query: string) => call(s, `/events/${eventId}/attendees?${query}`, { key });
      const shown = (res: Awaited<ReturnType<typeof list>>) =>
        res.body.data.map((x: { attendeeId: string; firstName: string }) => `${x.attendeeId}:${x.firstName}`);

      // A write begins (it takes its transaction id first), and another process commits one after it.
      const held = holdOpen(async (trx) => {
        await trx
          .updateTable('attendees')
          .set({
            first_name: 'Held',
            updated_utc: new Date().toISOString(),
            change_seq: await nextChangeSeq(trx),
          })
          .where('id', '=', first!)
          .execute();
      });
      await held.ready;
      const patched = await call(b, `/events/${eventId}/attendees/${second}`, {
        key,
        method: 'PATCH',
        body: { firstName: 'Committed' },
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);

      // The committed change waits behind the open one: not shown yet, in either process (the
      // row's earlier place is gone with its earlier version).
      const page = await list(a, 'limit=2');
      expect(shown(page)).toEqual([people[0], people[2]]);
      for (const s of [a, b])
        expect(shown(await list(s, 'limit=500'))).toEqual([people[0], people[2], people[3], people[4]]);

      await held.commit();
      // From the first page's cursor on: both changes after the rest, the one begun first first.
      const rest = await list(b, `limit=500&cursor=${page.body.nextCursor}`);
      expect(shown(rest)).toEqual([people[3], people[4], `${first}:Held`, `${second}:Committed`]);
    });

    it('answers the scans of both processes to a reader polling with after, each exactly once', async () => {
      const { eventId, ticketTypeId } = await newEvent();
      const door = await call(a, `/events/${eventId}/doors`, {
        key,
        method: 'POST',
        body: { name: 'Main entrance', main: true },
      });
      const registered = await registerVia(a, eventId, ticketTypeId, 40);
      const attendeeIds = registered.body.attendees.map(
        (x: { attendeeId: string }) => x.attendeeId,
      ) as string[];

      // A scan whose transaction began first and commits last.
      const held = holdOpen(async (trx) => {
        await trx
          .insertInto('check_ins')
          .values({
            workspace_id: workspaceId,
            event_id: eventId,
            attendee_id: attendeeIds[0]!,
            door_id: door.body.doorId,
            direction: 'out',
            result: 'out',
            admitted: 0,
            scanned_utc: new Date().toISOString(),
            offline: 0,
            recorded_utc: new Date().toISOString(),
          })
          .execute();
      });
      await held.ready;

      const seen: number[] = [];
      let after = 0;
      const poll = async () => {
        const res = await call(a, `/events/${eventId}/check-ins?after=${after}&limit=500`, { key });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        seen.push(...res.body.data.map((c: { checkInId: number }) => c.checkInId));
        after = res.body.after;
      };
      let scanning = true;
      const polling = (async () => {
        while (scanning) await poll();
      })();
      const scans = await Promise.all(
        attendeeIds.map((id, i) =>
          call(either(i), `/events/${eventId}/attendees/${id}/check-in`, { key, method: 'POST', body: {} }),
        ),
      );
      for (const s of scans) expect(s.status).toBe(200);
      await poll();
      // Nothing shown yet that a poll could pass: the open scan began before every one of them.
      expect(seen).toEqual([]);
      await held.commit();
      scanning = false;
      await polling;
      const all = await db.selectFrom('check_ins').select('id').where('event_id', '=', eventId).execute();
      expect(all).toHaveLength(41);
      // Every scan shows once each write begun before it has ended (the servers' own background
      // writes among them); one passed over would never show.
      await expect
        .poll(
          async () => {
            await poll();
            return seen.length;
          },
          { timeout: 60_000 },
        )
        .toBeGreaterThanOrEqual(41);
      expect([...seen].sort((x, y) => x - y)).toEqual(all.map((c) => c.id).sort((x, y) => x - y));
    });

    it('walks a list with cursors while both processes register, seeing each attendee once', async () => {
      const { eventId, ticketTypeId } = await newEvent();
      for (let i = 0; i < 6; i += 1)
        expect((await registerVia(either(i), eventId, ticketTypeId, 50)).status).toBe(201);
      const atStart = (
        await db.selectFrom('attendees').select('id').where('event_id', '=', eventId).execute()
      ).map((r) => r.id);
      // Settled first: a write of the servers' own begun before these ended could still hide them.
      await expect
        .poll(
          async () => (await call(a, `/events/${eventId}/attendees?limit=500`, { key })).body.data.length,
          {
            timeout: 60_000,
          },
        )
        .toBe(atStart.length);
      let writing = true;
      const writers = [a, b].map(async (s) => {
        while (writing) expect((await registerVia(s, eventId, ticketTypeId, 5)).status).toBe(201);
      });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await call(
          either(pages),
          `/events/${eventId}/attendees?limit=25${cursor ? `&cursor=${cursor}` : ''}`,
          {
            key,
          },
        );
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((x: { attendeeId: string }) => x.attendeeId));
        cursor = res.body.nextCursor ?? undefined;
        pages += 1;
      } while (cursor);
      writing = false;
      await Promise.all(writers);
      expect(pages).toBeGreaterThan(12);
      expect(new Set(seen).size, 'no repeats').toBe(seen.length);
      const seenSet = new Set(seen);
      for (const id of atStart) expect(seenSet.has(id), `${id} seen`).toBe(true);
    });
  });
});
