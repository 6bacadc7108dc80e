// At least once, through a crash: the real `tessera serve` process delivers a burst of signed
// messages to an HTTPS receiver and is killed with SIGKILL in the middle of it. Restarted on the same
// data folder, it delivers every message that had not been answered yet; nothing is lost, and
// every message that arrives twice carries the webhook-id it had the first time (so receivers can
// recognise the repeat). Every request the receiver got verifies with the secret from creation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/connect';
import { eventBody } from '../support/fixtures';
import { type Receiver, startReceiver } from '../support/receiver';
import {
  addUnlimitedTicketType,
  call,
  endAll,
  exited,
  openDataDir,
  registerBurst,
  serve,
  workspaceWithKey,
} from '../support/spawned';

const env = {
  TESSERA_SECRET_KEY: 'crash-test-master-key-0123456789abcdef',
  // The receiver is on loopback.
  TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
};

describe('deliveries through a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-webhook-crash-'));
  let receiver: Receiver | undefined;

  afterAll(async () => {
    await endAll();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no message and resends each with its first webhook-id after SIGKILL mid-burst', async () => {
    const people = 400;
    const perRequest = 20;
    receiver = await startReceiver();
    // Slow enough that the burst is still going when the plug is pulled.
    receiver.reply(() => ({ status: 200, delayMs: 15 }));

    const { workspaceId, key } = await workspaceWithKey(dataDir, 'Crash', env);

    const first = await serve(dataDir, env);
    expect(first.banner).toMatch(/WARNING: TESSERA_WEBHOOKS_ALLOW_PRIVATE=1 lets webhooks reach loopback/);
    expect(first.banner).not.toMatch(/Webhooks: +off/);
    const made = await call(first, '/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url('/crash'), eventTypes: ['attendee.registered'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const secret = made.body.secret as string;
    const event = await call(first, '/events', { key, method: 'POST', body: eventBody() });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    const eventId = event.body.eventId as string;
    const ticketTypeId = await addUnlimitedTicketType(dataDir, eventId);

    // The burst: every registration answered (each of its messages is in the outbox, committed).
    await registerBurst(
      first,
      key,
      { eventId, ticketTypeId },
      {
        people,
        perRequest,
        lastName: 'Receiver',
        emailDomain: 'example.org',
        emailTag: 'crash.receiver',
      },
    );
    await receiver.waitFor(60);
    process.kill(first.child.pid!, 'SIGKILL');
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    const beforeRestart = receiver.received.length;
    expect(beforeRestart, 'the crash came in the middle of the burst').toBeLessThan(people);

    const second = await serve(dataDir, env);
    // Every message arrives: one distinct webhook-id per registration.
    // Ends as soon as every message is in; the limit only ends a wait for what never comes.
    const deadline = Date.now() + 120_000;
    const distinct = () => new Set(receiver!.received.map((r) => String(r.headers['webhook-id']))).size;
    while (distinct() < people && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(distinct()).toBe(people);

    // Each registration's message has one webhook-id, whichever attempt brought it; all verify.
    const verifier = new Webhook(secret);
    const idsOfAttendee = new Map<string, Set<string>>();
    for (const got of receiver.received) {
      const headers = Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
      const body = verifier.verify(got.body, headers) as any;
      const attendeeId = body.data.attendee.attendeeId as string;
      const ids = idsOfAttendee.get(attendeeId) ?? new Set<string>();
      ids.add(headers['webhook-id']!);
      idsOfAttendee.set(attendeeId, ids);
    }
    expect(idsOfAttendee.size).toBe(people);
    expect([...idsOfAttendee.values()].filter((ids) => ids.size !== 1)).toEqual([]);

    // The ids are those of the outbox, and every delivery ends succeeded.
    await new Promise((r) => setTimeout(r, 300));
    second.child.kill('SIGTERM');
    await exited(second.child);
    const { db, close } = await openDataDir(dataDir);
    try {
      await migrateToLatest(db);
      const messages = await db
        .selectFrom('outbox')
        .select('message_id')
        .where('type', '=', 'attendee.registered')
        .where('workspace_id', '=', workspaceId)
        .execute();
      expect(new Set(messages.map((m) => m.message_id))).toEqual(
        new Set(receiver.received.map((r) => String(r.headers['webhook-id']))),
      );
      const states = await db
        .selectFrom('deliveries')
        .select(({ fn }) => ['state', fn.countAll<number>().as('n')])
        .where('workspace_id', '=', workspaceId)
        .groupBy('state')
        .execute();
      expect(states).toEqual([{ state: 'succeeded', n: people }]);
    } finally {
      await close();
    }
  }, 360_000);
});

describe('start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-webhook-banner-'));
  afterAll(async () => {
    await endAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the webhook key in the data folder without a master key, and gives no private-address warning by default', async () => {
    const s = await serve(dataDir, { TESSERA_SECRET_KEY: '', TESSERA_WEBHOOKS_ALLOW_PRIVATE: '' });
    expect(s.banner).toMatch(/Webhooks: +signing secrets encrypted with \S+instance\.key/);
    expect(s.banner).toMatch(/Webhook receivers: public addresses only/);
    expect(s.banner).not.toMatch(/WARNING/);
    s.child.kill('SIGTERM');
    await exited(s.child);
  });
});
