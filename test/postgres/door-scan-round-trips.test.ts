// PostgreSQL: a door check-in waits on the database as few times as it did when the statements held
// back (begin, the write's change position, the outbox's message) went by node-postgres's insides;
// they now go written ahead of the next statement in pipeline mode (db/deferred-statements.ts). Round
// trips are counted on the wire, by a TCP relay between the service and the server: one starts each
// time the service sends after the server last answered it, on each connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees';
import { checkInAttendee } from '../../core/checkin';
import type { Ctx } from '../../core/platform/context';
import { invoke } from '../../core/platform/pipeline/invoke';
import { type OpenServices, openServices } from '../../src/services';
import { everythingKeyContext } from '../support/key-context';
import { insertTicketType, person, sampleIds } from '../support/sales';
import { databaseFor, onPostgres } from '../support/test-store';

/** A relay to the database's server counting the round trips its connections make. */
async function countingRelay(target: URL): Promise<{ url: string; roundTrips(): number; close(): void }> {
  let roundTrips = 0;
  const relay: Server = createServer((client) => {
    const server = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    let answered = true;
    client.on('data', (chunk) => {
      if (answered) roundTrips += 1;
      answered = false;
      server.write(chunk);
    });
    server.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as { port: number }).port);
  return { url: url.toString(), roundTrips: () => roundTrips, close: () => relay.close() };
}

describe.runIf(onPostgres)('a door check-in on PostgreSQL', () => {
  let dir: string;
  let relay: Awaited<ReturnType<typeof countingRelay>>;
  let opened: OpenServices;
  let ctx: Ctx;
  let summit: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-scan-trips-'));
    relay = await countingRelay(new URL((await databaseFor(dir))!));
    // One connection: the count does not depend on which connection a statement lands on.
    opened = await openServices({ dataDir: dir, database: relay.url, dbConnections: 1, ratePerMinute: 1e6 });
    let workspaceId: string;
    ({ ctx, workspaceId } = await everythingKeyContext(opened.services, 'Door scan', { sample: true }));
    summit = sampleIds(workspaceId).event('summit');
  });
  afterAll(async () => {
    await opened?.close();
    relay?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits on the database three times: its reads; begin, change position and scan; its message and commit', async () => {
    const ticketTypeId = await insertTicketType(ctx.db, summit, { capacity: 100 });
    const registered = await invoke(registerAttendees, ctx, {
      eventId: summit,
      attendees: Array.from({ length: 4 }, () => person(ticketTypeId)),
    });
    const ids = (registered.data as { attendees: { attendeeId: string }[] }).attendees.map(
      (a) => a.attendeeId,
    );
    const scan = (attendeeId: string) => invoke(checkInAttendee, ctx, { eventId: summit, attendeeId });
    // The first scans prepare the statements on the connection.
    for (const id of ids.slice(0, 3)) await scan(id);
    const before = relay.roundTrips();
    const answer = await scan(ids[3]!);
    expect((answer.data as { result: string }).result).toBe('welcome');
    expect(relay.roundTrips() - before).toBe(3);
  });
});
