// The operator's commands beside a busy server: `tessera import`, `key revoke` and `person erase`
// run while clients register and scan at the door. On SQLite the commands and the server are two
// processes writing one file, so each must wait its turn for the write lock: no client may get a
// fault and no command may fail on a lock (the probe saw 44 registrations of 572 answer 500 beside
// three imports, and an import and a revocation fail with "database is locked").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/fixtures';
import { largeEventFile } from '../support/import-files';
import { person } from '../support/sales';
import type { ApiAnswer } from '../support/server';
import {
  addUnlimitedTicketType,
  call,
  endAll,
  runTessera,
  type Spawned,
  serve,
  tessera,
  workspaceWithKey,
} from '../support/spawned';

describe('operator commands beside live traffic', () => {
  let dir: string;
  let server: Spawned;
  let workspaceId: string;
  let key: string;
  let eventId: string;
  let ticketTypeId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-operator-'));
    ({ workspaceId, key } = await workspaceWithKey(dir, 'Busy workspace'));
    server = await serve(dir);
    const made = await call(server, '/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    eventId = made.body.eventId;
    ticketTypeId = await addUnlimitedTicketType(dir, eventId);
    const door = await call(server, `/events/${eventId}/doors`, {
      key,
      method: 'POST',
      body: { name: 'Main', kind: 'entrance', main: true },
    });
    expect(door.status, JSON.stringify(door.body)).toBe(201);
  });

  afterAll(async () => {
    await endAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers no client with a fault and fails no command while imports, revocations and erasures run', async () => {
    const answers: ApiAnswer[] = [];
    const registered: string[] = [];
    let running = true;

    const registering = async () => {
      while (running) {
        const attendees = [person(ticketTypeId), person(ticketTypeId)];
        const res = await call(server, `/events/${eventId}/attendees`, {
          key,
          method: 'POST',
          body: { attendees },
        });
        answers.push(res);
        if (res.status === 201) registered.push(...res.body.attendees.map((a: any) => a.attendeeId));
      }
    };
    const scanning = async () => {
      while (running) {
        const attendeeId = registered[Math.floor(Math.random() * registered.length)];
        if (!attendeeId) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        answers.push(
          await call(server, `/events/${eventId}/attendees/${attendeeId}/check-in`, {
            key,
            method: 'POST',
            body: {},
          }),
        );
      }
    };

    const commands: { args: string[]; code: number; stderr: string }[] = [];
    const command = async (args: string[]) => {
      const run = await runTessera([...args, '--data', dir]);
      commands.push({ args, code: run.code, stderr: run.stderr });
      return run;
    };
    const operating = async () => {
      for (let round = 0; round < 3; round += 1) {
        // An import large enough to hold the write lock for a while.
        const file = join(dir, `import-${round}.json`);
        const content = largeEventFile(6_000, `busy-import-${round}`);
        content.events[0]!.key = `busy-${round}`;
        writeFileSync(file, JSON.stringify(content));
        await command(['import', '--workspace', workspaceId, file]);

        const made = await command([
          'key',
          'create',
          '--workspace',
          workspaceId,
          '--name',
          `short-${round}`,
          '--preset',
          'dashboard',
        ]);
        const revoked = JSON.parse(made.stdout || '{}').apiKeyId as string;
        await command(['key', 'revoke', revoked]);

        const email = registeredEmail(answers);
        await command(['person', 'erase', '--workspace', workspaceId, '--email', email]);
      }
    };

    const clients = [registering(), registering(), registering(), registering(), scanning(), scanning()];
    await operating();
    running = false;
    await Promise.all(clients);

    expect(
      commands.filter((c) => c.code !== 0),
      'every command succeeds',
    ).toEqual([]);
    expect(commands).toHaveLength(12);
    const faults = answers.filter((a) => a.status >= 500).map((a) => [a.status, a.body]);
    expect(faults, 'no client gets a fault').toEqual([]);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 201).map((a) => a.body)).toEqual([]);
    // The load really ran beside the commands.
    expect(answers.length).toBeGreaterThan(100);

    // What the commands did holds: each revoked key is refused, each import is there.
    const keys = await tessera(['key', 'list', '--workspace', workspaceId, '--data', dir]);
    const revokedKeys = (keys as any[]).filter((k) => k.name.startsWith('short-'));
    expect(revokedKeys).toHaveLength(3);
    for (const k of revokedKeys) expect(k.revokedUtc).not.toBeNull();
    const events = await call(server, '/events?limit=100', { key });
    for (let round = 0; round < 3; round += 1) {
      expect(events.body.data.map((e: any) => e.slug)).toContain(`busy-import-${round}`);
    }
  }, 600_000);
});

/** The email of one attendee registered so far (each erasure takes a different one). */
const erased = new Set<string>();
function registeredEmail(answers: ApiAnswer[]): string {
  for (const a of answers) {
    if (a.status !== 201 || !a.body.attendees) continue;
    for (const attendee of a.body.attendees) {
      if (!erased.has(attendee.email)) {
        erased.add(attendee.email);
        return attendee.email;
      }
    }
  }
  throw new Error('nobody registered yet');
}
