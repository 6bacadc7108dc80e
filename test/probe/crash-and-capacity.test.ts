// Probes two promises of registration under stress:
//
// - Capacity holds under a stampede: hundreds of registrations fired at once against a ticket type
//   of 20 places sell exactly the places there are, never one more, and only whole orders (an order
//   of 3 either gets all its places or none). The refused ones answer 400 soldOut, never a fault.
// - A crash loses nothing and duplicates nothing: the real `tessera serve` process is killed with
//   SIGKILL in the middle of a stream of registrations, each with its own Idempotency-Key. After a
//   restart on the same data folder every request is sent again: the ones answered before the crash
//   get their first answer back (same order), the ones whose answer was lost are either replayed or
//   made now, and the event ends with exactly one ticket per request. The crashed process's
//   in-flight requests block nothing (no 409 idempotencyKeyInUse).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody, expectProblem } from '../support/fixtures';
import { addTicketType, person, register, walkPages } from '../support/sales';
import type { ApiAnswer } from '../support/server';
import { startTestServer, type TestServer } from '../support/server';
import {
  addUnlimitedTicketType,
  call,
  endAll,
  exited,
  type Spawned,
  serve,
  workspaceWithKey,
} from '../support/spawned';

describe('capacity under a stampede', () => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer({ rateLimit: 1_000_000 });
    const { workspaceId } = await t.workspace('Stampede workspace');
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  });
  afterAll(async () => t?.close());

  async function eventWithPlaces(capacity: number): Promise<{ eventId: string; ticketTypeId: string }> {
    const made = await t.api('/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const eventId = made.body.eventId as string;
    return { eventId, ticketTypeId: await addTicketType(t, eventId, { capacity }) };
  }

  async function places(eventId: string, ticketTypeId: string) {
    const res = await t.api(`/events/${eventId}/ticket-types/${ticketTypeId}`, { key });
    expect(res.status).toBe(200);
    return res.body as { capacity: number; taken: number; remaining: number };
  }

  /** Splits answers into sold (201) and soldOut (400); anything else fails the test. */
  function tally(answers: ApiAnswer[], ticketTypeId: string): ApiAnswer[] {
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s >= 500),
      'no registration may end in a fault',
    ).toEqual([]);
    expect(statuses.filter((s) => s !== 201 && s !== 400)).toEqual([]);
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(expectProblem(refused, 400, 'soldOut').ticketTypeId).toBe(ticketTypeId);
    }
    return answers.filter((a) => a.status === 201);
  }

  it('sells exactly the places there are: 300 people at once for 20 places get 20 tickets', async () => {
    const { eventId, ticketTypeId } = await eventWithPlaces(20);
    const bodies = Array.from({ length: 300 }, () => [person(ticketTypeId)]);
    const answers = await Promise.all(bodies.map((attendees) => register(t, key, eventId, attendees)));

    const sold = tally(answers, ticketTypeId);
    expect(sold).toHaveLength(20);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(280);
    expect(new Set(sold.map((a) => a.body.orderId)).size).toBe(20);

    expect(await places(eventId, ticketTypeId)).toMatchObject({ capacity: 20, taken: 20, remaining: 0 });

    const { items } = await walkPages(t, key, `/events/${eventId}/attendees?limit=500`);
    expect(items).toHaveLength(20);
    const listed = items.map((a) => a.email as string);
    expect(new Set(listed).size).toBe(20);
    const soldEmails = sold.map((a) => a.body.attendees[0].email as string);
    expect([...listed].sort()).toEqual([...soldEmails].sort());
    expect(items.map((a) => a.attendeeId).sort()).toEqual(
      sold.map((a) => a.body.attendees[0].attendeeId).sort(),
    );
  });

  it('sells only whole orders: orders of 3 at once for 20 places stop at 18, never above 20', async () => {
    const { eventId, ticketTypeId } = await eventWithPlaces(20);
    const bodies = Array.from({ length: 150 }, () => [
      person(ticketTypeId),
      person(ticketTypeId),
      person(ticketTypeId),
    ]);
    const answers = await Promise.all(bodies.map((attendees) => register(t, key, eventId, attendees)));

    const sold = tally(answers, ticketTypeId);
    expect(sold).toHaveLength(6);
    for (const a of sold) expect(a.body.attendees).toHaveLength(3);
    expect(await places(eventId, ticketTypeId)).toMatchObject({ capacity: 20, taken: 18, remaining: 2 });
    const { items } = await walkPages(t, key, `/events/${eventId}/attendees?limit=500`);
    expect(items).toHaveLength(18);
    expect(new Set(items.map((a) => a.email)).size).toBe(18);

    // The two places left are still sold, and then nothing more.
    const two = await register(t, key, eventId, [person(ticketTypeId), person(ticketTypeId)]);
    expect(two.status).toBe(201);
    expectProblem(await register(t, key, eventId, [person(ticketTypeId)]), 400, 'soldOut');
    expect(await places(eventId, ticketTypeId)).toMatchObject({ taken: 20, remaining: 0 });
  });
});

// ---- the real process, killed mid-stream ----

/** Every attendee of an event, following nextCursor (500 a page). */
async function attendeesOf(s: Spawned, key: string, eventId: string): Promise<any[]> {
  const attendees: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: ApiAnswer = await call(
      s,
      `/events/${eventId}/attendees?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    attendees.push(...page.body.data);
    cursor = page.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 20);
  return attendees;
}

/** Runs `work` for indexes 0..n-1 with at most `width` at a time, until `stop()` says so. */
async function pool(n: number, width: number, work: (i: number) => Promise<void>, stop = () => false) {
  let next = 0;
  const worker = async () => {
    while (next < n && !stop()) await work(next++);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

type Outcome =
  | { kind: 'answered'; status: number; orderId?: string }
  | { kind: 'failed'; error: string }
  | { kind: 'unsent' };

describe('a crash mid-stream', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-crash-'));
  const agents: Agent[] = [];

  afterAll(async () => {
    await endAll();
    await Promise.all(agents.map((a) => a.destroy().catch(() => undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing and duplicates nothing when killed mid-stream: every retry gets one ticket', async () => {
    const total = 400;
    const killAfter = 150;
    const { key } = await workspaceWithKey(dataDir, 'Crash workspace');

    let s = await serve(dataDir);
    agents.push(s.agent);
    const event = await call(s, '/events', { key, method: 'POST', body: eventBody() });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    const eventId = event.body.eventId as string;
    const ticketTypeId = await addUnlimitedTicketType(dataDir, eventId);

    const bodies = Array.from({ length: total }, (_, i) => ({
      attendees: [
        {
          ticketTypeId,
          firstName: 'Crash',
          lastName: `Tester ${i}`,
          email: `crash.${i}@example.org`,
        },
      ],
    }));
    const send = (server: Spawned, i: number) =>
      call(server, `/events/${eventId}/attendees`, {
        key,
        method: 'POST',
        body: bodies[i],
        headers: { 'idempotency-key': `reg-${i}` },
      });

    // Stream with 8 at a time; the answer that makes 150 pulls the plug.
    const before: Outcome[] = Array.from({ length: total }, () => ({ kind: 'unsent' }));
    let answered = 0;
    let killed = false;
    const first = s;
    await pool(
      total,
      8,
      async (i) => {
        try {
          const res = await send(first, i);
          before[i] = { kind: 'answered', status: res.status, orderId: res.body?.orderId };
          answered += 1;
          if (answered >= killAfter && !killed) {
            killed = true;
            process.kill(first.child.pid!, 'SIGKILL');
          }
        } catch (error) {
          before[i] = { kind: 'failed', error: String((error as any)?.cause?.code ?? error) };
        }
      },
      () => killed,
    );
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');

    const answeredBefore = before.flatMap((o, i) => (o.kind === 'answered' ? [{ i, ...o }] : []));
    expect(answeredBefore.length).toBeGreaterThanOrEqual(killAfter);
    expect(answeredBefore.filter((o) => o.status !== 201)).toEqual([]);

    // Restart on the same data folder (a new port). What survived the crash, read by the restarted
    // server before any retry: every answered registration, each with its order, and nothing else.
    s = await serve(dataDir);
    agents.push(s.agent);
    const second = s;
    const survived = await attendeesOf(second, key, eventId);
    const survivedEmails = new Set(survived.map((a) => a.email as string));
    expect(survivedEmails.size, 'one ticket per committed request').toBe(survived.length);
    expect(new Set(survived.map((a) => a.orderId)).size).toBe(survived.length);
    const sentEmail = (i: number) => bodies[i]!.attendees[0]!.email;
    const committed = new Set(before.flatMap((_, i) => (survivedEmails.has(sentEmail(i)) ? [i] : [])));
    expect(committed.size, 'only requests that were sent left a ticket').toBe(survived.length);
    for (const o of answeredBefore) expect(committed.has(o.i), `reg-${o.i} was answered 201`).toBe(true);
    const failed = before.flatMap((o, i) => (o.kind === 'failed' ? [i] : []));
    expect(failed.length, 'the kill cut requests off mid-flight').toBeGreaterThan(0);

    // Send every request again, same Idempotency-Key and body.
    const after: ApiAnswer[] = new Array(total);
    await pool(total, 8, async (i) => {
      after[i] = await send(second, i);
    });

    const inUse = after.flatMap((a, i) => (a.body?.code === 'idempotencyKeyInUse' ? [i] : []));
    expect(inUse, 'a crashed request must not block its retry').toEqual([]);
    const notCreated = after.flatMap((a, i) =>
      a.status === 201 ? [] : [{ i, status: a.status, body: a.body }],
    );
    expect(notCreated).toEqual([]);
    for (const o of answeredBefore) {
      expect(after[o.i]!.body.orderId, `reg-${o.i} keeps its order`).toBe(o.orderId);
    }
    // A retry is a replay exactly when its first attempt had committed (answered or not).
    const replayed = after.flatMap((a, i) => (a.headers.get('idempotent-replayed') === 'true' ? [i] : []));
    expect(replayed).toEqual([...committed].sort((a, b) => a - b));
    for (const a of survived) {
      const i = bodies.findIndex((b) => b.attendees[0]!.email === a.email);
      expect(after[i]!.body.orderId, `reg-${i} replays the order that survived`).toBe(a.orderId);
    }
    expect(new Set(after.map((a) => a.body.orderId)).size).toBe(total);

    // Exactly one ticket per request: nothing lost, nothing doubled.
    const attendees = await attendeesOf(second, key, eventId);
    const emails = attendees.map((a) => a.email as string);
    expect(emails).toHaveLength(total);
    expect(new Set(emails).size).toBe(total);
    expect([...emails].sort()).toEqual(bodies.map((b) => b.attendees[0]!.email).sort());
    expect(new Set(attendees.map((a) => a.orderId))).toEqual(new Set(after.map((a) => a.body.orderId)));

    // The place count agrees with the tickets.
    const type = await call(second, `/events/${eventId}/ticket-types/${ticketTypeId}`, { key });
    expect(type.body).toMatchObject({ capacity: null, taken: total, remaining: null });
  });
});
