// The same service on PostgreSQL (`tessera serve --database postgres://…`): started on a throwaway
// cluster, it makes the demonstration workspace and answers every GET of the API that takes no
// other id than an event's, for every event, exactly as the same service on SQLite does (the
// origin, trace ids, cursors and the moment the sample data is dated from aside). Needs PostgreSQL's server binaries; without them it skips, saying so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../../scripts/postgres-cluster.mjs';
import { postgresHere } from '../support/postgres';
import { call, endAll, type Spawned, serve, workspaceWithKey } from '../support/spawned';

const available = postgresHere('the PostgreSQL parity test');

describe.skipIf(!available)('the demonstration workspace on PostgreSQL and on SQLite', () => {
  let cluster: Cluster;
  let lite: Spawned;
  let postgres: Spawned;
  let key: string;
  const dirs = [mkdtempSync(join(tmpdir(), 'parity-lite-')), mkdtempSync(join(tmpdir(), 'parity-pg-'))];

  beforeAll(async () => {
    cluster = await startCluster();
    [lite, postgres] = await Promise.all([
      // SQLite even under test:postgres.
      serve(dirs[0]!, { TESSERA_DATABASE_URL: '' }),
      serve(dirs[1]!, { TESSERA_DATABASE_URL: cluster.url }),
    ]);
    key = /Demonstration key \(read-only workspace\): (\S+)/.exec(lite.banner)![1]!;
  });

  afterAll(async () => {
    await endAll();
    cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('says where its data is, without the password', () => {
    expect(postgres.banner).toContain(`Database:  ${cluster.url} (PostgreSQL)`);
    expect(lite.banner).not.toContain('Database:');
  });

  it('answers every event-level GET the same', async () => {
    const spec = (await call(lite, '/openapi.json', { key })).body as {
      paths: Record<string, { get?: unknown }>;
    };
    const events = (await call(lite, '/events?limit=100', { key })).body.data as { eventId: string }[];
    expect(events.length).toBeGreaterThan(3);
    const norm = (s: Spawned, body: unknown) =>
      JSON.stringify(body)
        .replaceAll(s.origin, 'ORIGIN')
        .replace(/"traceId":"[0-9a-f]+"/g, '')
        // The sample data is dated from each server's start, a moment apart.
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')
        .replace(/"(nextCursor|cursor)":"[^"]+"/g, '"$1":"CURSOR"')
        // A certificate's verification code is random wherever it is made, the sample's too.
        .replace(/\/v\/[A-Za-z0-9_-]{24}/g, '/v/CODE')
        // So is a ticket's code, in its address too.
        .replace(/"ticketCode":"[A-Z2-7]{26}"/g, '"ticketCode":"CODE"')
        .replace(/\/t\/[A-Z2-7]{26}/g, '/t/CODE');
    let compared = 0;
    for (const [path, item] of Object.entries(spec.paths)) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (!item.get || params.some((p) => p !== 'eventId')) continue;
      const targets = params.length > 0 ? events.map((e) => path.replace('{eventId}', e.eventId)) : [path];
      for (const target of targets) {
        const [a, b] = await Promise.all([call(lite, target, { key }), call(postgres, target, { key })]);
        expect(`${target} ${b.status} ${norm(postgres, b.body)}`).toBe(
          `${target} ${a.status} ${norm(lite, a.body)}`,
        );
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('takes writes: a workspace and a key made by the CLI, a registration through the API, read back in change order', async () => {
    const { key: own } = await workspaceWithKey(
      dirs[1]!,
      'On PostgreSQL',
      { TESSERA_DATABASE_URL: cluster.url },
      { sample: true },
    );
    const events = (await call(postgres, '/events?limit=100', { key: own })).body.data as {
      eventId: string;
      endsUtc: string;
    }[];
    const event = events.find((e) => e.endsUtc > new Date().toISOString())!;
    const types = (await call(postgres, `/events/${event.eventId}/ticket-types`, { key: own })).body.data as {
      ticketTypeId: string;
    }[];
    const person = (n: number) => ({
      ticketTypeId: types[0]!.ticketTypeId,
      firstName: 'Pat',
      lastName: `Postgres ${n}`,
      email: `pat.${n}@example.org`,
    });
    const registered = await call(postgres, `/events/${event.eventId}/attendees`, {
      method: 'POST',
      key: own,
      body: { attendees: [person(1), person(2)] },
    });
    expect(registered.status).toBe(201);
    let cursor: string | null = null;
    const seen: string[] = [];
    do {
      const page: { body: { data: { attendeeId: string }[]; nextCursor: string | null } } = await call(
        postgres,
        `/events/${event.eventId}/attendees?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: own },
      );
      seen.push(...page.body.data.map((a) => a.attendeeId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(-2)).toEqual(
      registered.body.attendees.map((a: { attendeeId: string }) => a.attendeeId),
    );
    const one = await call(postgres, `/events/${event.eventId}/attendees/${seen.at(-1)}`, { key: own });
    expect(one.body).toEqual(registered.body.attendees[1]);
  });
});
