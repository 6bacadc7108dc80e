// Leads captured through two `tessera serve` processes on one PostgreSQL database at the same
// moment, as two booth scanners behind a proxy would: one visitor and one sponsor make one lead, and
// a visitor who agrees to share at several captures at once is announced (lead.captured) once
// (eight rounds: a read-then-write check of consent announces twice in most of them).
// Needs PostgreSQL's server binaries; without them it skips, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../db/connect';
import { type Cluster, startCluster } from '../../scripts/postgres-cluster.mjs';
import { eventBody } from '../support/fixtures';
import { postgresHere } from '../support/postgres';
import { insertTicketType, person } from '../support/sales';
import { call, endAll, type Spawned, serve, workspaceWithKey } from '../support/spawned';

const available = postgresHere('the lead captures test');

describe.skipIf(!available)('lead captures through two processes on one PostgreSQL database', () => {
  let cluster: Cluster;
  let a: Spawned;
  let b: Spawned;
  let key: string;
  let db: Db;
  let closeDb: () => Promise<void>;
  let eventId: string;
  let sponsorId: string;
  let ticketTypeId: string;
  const dirs = [mkdtempSync(join(tmpdir(), 'leads-a-')), mkdtempSync(join(tmpdir(), 'leads-b-'))];

  beforeAll(async () => {
    cluster = await startCluster();
    const env = {
      TESSERA_DATABASE_URL: cluster.url,
      TESSERA_SECRET_KEY: 'lead-captures-master-key-0123456789',
    };
    a = await serve(dirs[0]!, env);
    b = await serve(dirs[1]!, env);
    ({ key } = await workspaceWithKey(dirs[0]!, 'Booths', env));
    ({ db, close: closeDb } = openDatabase(cluster.url));
    const made = await call(a, '/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    eventId = made.body.eventId;
    ticketTypeId = await insertTicketType(db, eventId, {});
    const sponsor = await call(a, `/events/${eventId}/sponsors`, {
      key,
      method: 'POST',
      body: { name: 'Booth AS' },
    });
    expect(sponsor.status, JSON.stringify(sponsor.body)).toBe(201);
    sponsorId = sponsor.body.sponsorId;
  });

  afterAll(async () => {
    await endAll();
    await closeDb?.();
    cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const either = (i: number) => (i % 2 === 0 ? a : b);

  async function visitor(): Promise<string> {
    const res = await call(a, `/events/${eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees: [person(ticketTypeId)] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.attendees[0].attendeeId;
  }

  const captures = (attendeeId: string, n: number, body: Record<string, unknown>) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        call(either(i), `/events/${eventId}/leads`, {
          key,
          method: 'POST',
          body: { sponsorId, attendeeId, ...body },
        }),
      ),
    );
  const leadsOf = (attendeeId: string) =>
    db.selectFrom('leads').select('id').where('attendee_id', '=', attendeeId).execute();
  const messagesAbout = async (leadId: string) =>
    (await db.selectFrom('outbox').select('payload').where('type', '=', 'lead.captured').execute()).filter(
      (m) => JSON.parse(m.payload).data.lead.leadId === leadId,
    );

  it('makes one lead of a visitor captured through both at once, announced once', async () => {
    const attendeeId = await visitor();
    const answers = await captures(attendeeId, 16, { consent: true, rating: 2 });
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(201);
    const leads = await leadsOf(attendeeId);
    expect(leads).toHaveLength(1);
    expect(new Set(answers.map((r) => r.body.lead.leadId))).toEqual(new Set([leads[0]!.id]));
    expect(await messagesAbout(leads[0]!.id)).toHaveLength(1);
  });

  it.each(Array.from({ length: 8 }, (_, i) => i))(
    'announces a lead once when several captures at once give the consent it lacked (%i)',
    async () => {
      const attendeeId = await visitor();
      const first = await captures(attendeeId, 1, { consent: false, rating: 1 });
      expect(first[0]!.status).toBe(201);
      const answers = await captures(attendeeId, 16, { consent: true });
      for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(await leadsOf(attendeeId)).toHaveLength(1);
      expect(await messagesAbout(first[0]!.body.lead.leadId)).toHaveLength(1);
    },
  );
});
