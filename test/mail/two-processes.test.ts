// Two `tessera serve` processes on one PostgreSQL database, each with its mail sender: every
// message is claimed by one of them (rows locked and skipped, as the webhook dispatcher's are), so
// each confirmation reaches its attendee exactly once, whichever process took the registration.
// Needs PostgreSQL's server binaries; without them it skips, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { type Cluster, startCluster } from '../../scripts/postgres-cluster.mjs';
import { eventBody } from '../support/fixtures';
import { postgresHere } from '../support/postgres';
import { insertTicketType } from '../support/sales';
import { type SmtpTestServer, startSmtpServer } from '../support/smtp';
import { call, endAll, type Spawned, serve, workspaceWithKey } from '../support/spawned';

const available = postgresHere('the two mail senders test');

describe.skipIf(!available)('two mail senders on one PostgreSQL database', () => {
  let cluster: Cluster;
  let smtp: SmtpTestServer;
  let a: Spawned;
  let b: Spawned;
  let db: Db;
  let closeDb: () => Promise<void>;
  const dirs = [mkdtempSync(join(tmpdir(), 'mail-two-a-')), mkdtempSync(join(tmpdir(), 'mail-two-b-'))];
  // Processes on one database share the key (each data folder would make its own): a start with
  // another key than the webhook secrets' is refused.
  const sharedKey = 'mail-two-processes-master-key-0123456789';

  beforeAll(async () => {
    cluster = await startCluster();
    smtp = await startSmtpServer();
    // A slow server: both senders have work in flight at once.
    smtp.delay(20);
    const env = {
      TESSERA_DATABASE_URL: cluster.url,
      TESSERA_SMTP_URL: smtp.url,
      TESSERA_MAIL_FROM: 'tickets@two.test',
      TESSERA_SECRET_KEY: sharedKey,
    };
    [a, b] = await Promise.all([serve(dirs[0]!, env), serve(dirs[1]!, env)]);
    ({ db, close: closeDb } = openDatabase(cluster.url));
    await migrateToLatest(db);
  }, 300_000);

  afterAll(async () => {
    await endAll();
    await closeDb?.();
    await smtp?.close();
    cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('sends each confirmation once, whichever process registered it', async () => {
    const env = { TESSERA_DATABASE_URL: cluster.url, TESSERA_SECRET_KEY: sharedKey };
    const { key } = await workspaceWithKey(dirs[0]!, 'Two senders', env);
    const made = await call(a, '/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const eventId = made.body.eventId as string;
    const ticketTypeId = await insertTicketType(db, eventId);
    const people = 80;
    await Promise.all(
      Array.from({ length: people / 10 }, (_, i) =>
        call(i % 2 === 0 ? a : b, `/events/${eventId}/attendees`, {
          key,
          method: 'POST',
          body: {
            attendees: Array.from({ length: 10 }, (_, j) => ({
              ticketTypeId,
              firstName: 'Two',
              lastName: `Senders ${i * 10 + j}`,
              email: `two.senders.${i * 10 + j}@mail.test`,
            })),
          },
        }).then((res) => expect(res.status, JSON.stringify(res.body)).toBe(201)),
      ),
    );
    await smtp.waitFor(people, 120_000);
    // Time for a second sending, were there one.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(smtp.received).toHaveLength(people);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(people);
    const states = await db
      .selectFrom('mail_messages')
      .select(['state', 'attempts'])
      .where('event_id', '=', eventId)
      .execute();
    expect(states.filter((s) => s.state !== 'sent' || s.attempts !== 1)).toEqual([]);
    expect(states).toHaveLength(people);
  }, 300_000);
});
