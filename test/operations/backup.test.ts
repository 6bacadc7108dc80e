// Issue 28, item 3: `tessera backup` beside a busy server and `tessera restore` into an empty
// folder. A real `tessera serve` takes registrations and door scans from several HTTPS clients
// while the backup runs in another process; every row answered before the backup began is in the
// restored database, which passes SQLite's integrity check, and a server started on the restored
// folder answers with the same keys: the same API key, the demonstration key, a webhook whose
// signing secret still decrypts (its deliveries verify with the secret given at creation) and the
// same access-token signing keys. Refusals: an existing FILE, a non-empty folder, a damaged file.
// On PostgreSQL the file holds the data folder's files and says the database is pg_dump's.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { eventBody } from '../support/fixtures';
import { type Receiver, startReceiver } from '../support/receiver';
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
import { onPostgres } from '../support/test-store';

const env = {
  TESSERA_SECRET_KEY: 'backup-test-master-key-0123456789abcdef',
  // The receiver is on loopback.
  TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(onPostgres)('backup under load and restore (SQLite)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tessera-backup-'));
  const dataDir = join(root, 'data');
  const restoredDir = join(root, 'restored');
  const file = join(root, 'tessera-backup.db');
  let receiver: Receiver | undefined;

  afterAll(async () => {
    await endAll();
    await receiver?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps every row answered before it began, and the restored folder serves with the same keys', async () => {
    receiver = await startReceiver();
    const { key } = await workspaceWithKey(dataDir, 'Backed up', env);
    const server = await serve(dataDir, env);
    const hook = await call(server, '/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url('/restored'), eventTypes: ['attendee.registered'] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = hook.body.secret as string;
    const made = await call(server, '/events', { key, method: 'POST', body: eventBody() });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const eventId = made.body.eventId as string;
    const ticketTypeId = await addUnlimitedTicketType(dataDir, eventId);
    const door = await call(server, `/events/${eventId}/doors`, {
      key,
      method: 'POST',
      body: { name: 'Main', kind: 'entrance', main: true },
    });
    expect(door.status, JSON.stringify(door.body)).toBe(201);
    const jwksBefore = await (await fetchJwks(server)).json();
    mkdirSync(join(dataDir, 'keys'), { mode: 0o700 });
    writeFileSync(join(dataDir, 'keys', 'extra.pem'), 'a key file of a later version', { mode: 0o600 });
    mkdirSync(join(dataDir, '.cache'));
    writeFileSync(join(dataDir, '.cache', 'native.node'), 'unpacked again on start');

    // The load: what each answer committed, in the order the answers arrived.
    const answers: ApiAnswer[] = [];
    const attendees: { id: string; orderId: string }[] = [];
    const checkIns: { id: number }[] = [];
    let running = true;
    const registering = async () => {
      while (running) {
        const res = await call(server, `/events/${eventId}/attendees`, {
          key,
          method: 'POST',
          body: { attendees: [person(ticketTypeId), person(ticketTypeId)] },
        });
        answers.push(res);
        if (res.status === 201)
          for (const a of res.body.attendees) attendees.push({ id: a.attendeeId, orderId: a.orderId });
      }
    };
    const scanning = async () => {
      while (running) {
        const attendee = attendees[Math.floor(Math.random() * attendees.length)];
        if (!attendee) {
          await sleep(5);
          continue;
        }
        const res = await call(server, `/events/${eventId}/attendees/${attendee.id}/check-in`, {
          key,
          method: 'POST',
          body: {},
        });
        answers.push(res);
        if (res.status === 200) checkIns.push({ id: res.body.checkInId });
      }
    };
    const clients = [registering(), registering(), registering(), scanning(), scanning()];
    while (attendees.length < 100 || checkIns.length < 20) await sleep(20);

    // What was answered before the backup began: the lists as they stand now (a stamp taken in
    // the same millisecond as an answer's would leave that answer out).
    const before = attendees.slice();
    const scansBefore = checkIns.slice();
    const began = Date.now();
    const run = await runTessera(['backup', '--to', file, '--data', dataDir]);
    const tookMs = Date.now() - began;
    // The load goes on a moment after the backup, then stops.
    await sleep(200);
    running = false;
    await Promise.all(clients);

    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer).toMatchObject({ file, version: expect.any(String), source: 'sqlite', schema: 'current' });
    expect(answer.bytes).toBe(statSync(file).size);
    // Every file of the folder by walking it (a key file of a later version too), but not the
    // database's own files nor dot-folders (caches such as the single executable's native addon).
    expect(answer.files).toEqual([
      'keys/extra.pem',
      'oauth/signing-keys.json',
      'tls/localhost-cert.pem',
      'tls/localhost-key.pem',
    ]);
    expect(answer.files).not.toContain('tessera.db');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Waiting out the writers' lock (a command's patience is 180 s) would take longer; a loaded
    // machine runs the command itself four times slower than a quiet one (about 2 s).
    expect(tookMs, 'the backup of a small database is quick').toBeLessThan(60_000);
    // The server kept answering while the backup ran.
    expect(
      answers.filter((a) => a.status !== 200 && a.status !== 201).map((a) => [a.status, a.body]),
    ).toEqual([]);

    // A FILE that exists is refused and left as it is.
    const again = await runTessera(['backup', '--to', file, '--data', dataDir]);
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stderr)).toMatchObject({
      error: 'backupRefused',
      detail: expect.stringMatching(/already exists.*--force/),
    });
    expect(statSync(file).size).toBe(answer.bytes);

    // Restore into an empty folder.
    const restored = await tessera(['restore', file, '--data', restoredDir]);
    expect(restored).toMatchObject({
      dataDir: restoredDir,
      source: 'sqlite',
      schema: 'current',
      files: answer.files,
    });
    expect(statSync(restoredDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(restoredDir, 'oauth')).mode & 0o777).toBe(0o700);
    for (const name of ['tessera.db', 'keys/extra.pem', 'oauth/signing-keys.json', 'tls/localhost-key.pem']) {
      expect(statSync(join(restoredDir, name)).mode & 0o777, name).toBe(0o600);
    }
    for (const name of ['keys/extra.pem', 'oauth/signing-keys.json', 'tls/localhost-cert.pem'])
      expect(readFileSync(join(restoredDir, name)), name).toEqual(readFileSync(join(dataDir, name)));

    const db = new SqliteDatabase(join(restoredDir, 'tessera.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const ids = (sql: string) => new Set((db.prepare(sql).all() as { id: unknown }[]).map((r) => r.id));
      const attendeeIds = ids('select id from attendees');
      const orderIds = ids('select id from orders');
      const checkInIds = ids('select id from check_ins');
      expect(before.filter((a) => !attendeeIds.has(a.id))).toEqual([]);
      expect(before.filter((a) => !orderIds.has(a.orderId))).toEqual([]);
      expect(scansBefore.filter((c) => !checkInIds.has(c.id))).toEqual([]);
      // The backup's own tables are not in the restored database.
      expect(db.prepare(`select name from sqlite_master where name like 'tessera_backup%'`).all()).toEqual(
        [],
      );
    } finally {
      db.close();
    }

    // A server on the restored folder: same keys, same webhook secret, same signing keys.
    const second = await serve(restoredDir, env);
    expect((await call(second, '/me', { key })).status).toBe(200);
    expect((await call(second, '/me', { key: demoKey.key })).status).toBe(200);
    expect(await (await fetchJwks(second)).json()).toEqual(jwksBefore);
    const fresh = await call(second, `/events/${eventId}/attendees`, {
      key,
      method: 'POST',
      body: { attendees: [person(ticketTypeId)] },
    });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
    const freshId = fresh.body.attendees[0].attendeeId as string;
    const verifier = new Webhook(secret);
    const deadline = Date.now() + 80_000;
    let delivered: any;
    while (!delivered && Date.now() < deadline) {
      delivered = receiver.received
        .map((got) => {
          const headers = Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
          return verifier.verify(got.body, headers) as any;
        })
        .find((body) => body.data.attendee.attendeeId === freshId);
      if (!delivered) await sleep(50);
    }
    expect(
      delivered,
      'the restored server delivers a message signed with the secret from before',
    ).toBeTruthy();

    // Refusals: a folder that is not empty, a truncated file, a file that is no backup.
    const over = await runTessera(['restore', file, '--data', restoredDir]);
    expect(over.code).toBe(2);
    expect(JSON.parse(over.stderr)).toMatchObject({
      error: 'backupRefused',
      detail: expect.stringMatching(/is not empty.*never writes over a deployment/),
    });
    const truncated = join(root, 'truncated.db');
    writeFileSync(truncated, readFileSync(file).subarray(0, Math.floor(answer.bytes / 2)));
    const broken = await runTessera(['restore', truncated, '--data', join(root, 'from-truncated')]);
    expect(broken.code).toBe(2);
    expect(JSON.parse(broken.stderr).detail).toMatch(/damaged or truncated/);
    const notBackup = join(root, 'notes.txt');
    writeFileSync(notBackup, 'not a database at all');
    const wrong = await runTessera(['restore', notBackup, '--data', join(root, 'from-notes')]);
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr).detail).toMatch(/not a Tessera backup/);
    // A backup made by a newer Tessera is refused, saying which version to use.
    const newer = join(root, 'newer.db');
    copyFileSync(file, newer);
    const edit = new SqliteDatabase(newer);
    edit.prepare(`update tessera_backup_info set value = '"99.0.0"' where name = 'tesseraVersion'`).run();
    edit.close();
    const fromNewer = await runTessera(['restore', newer, '--data', join(root, 'from-newer')]);
    expect(fromNewer.code).toBe(2);
    expect(JSON.parse(fromNewer.stderr).detail).toMatch(
      /made by Tessera 99\.0\.0, newer than this one.*99\.0\.0 or later/,
    );
    // --force replaces an existing file with a whole backup.
    const forced = join(root, 'forced.db');
    writeFileSync(forced, 'an old file');
    const replaced = await tessera(['backup', '--to', forced, '--data', restoredDir, '--force']);
    expect(replaced.bytes).toBeGreaterThan(100_000);
    expect(readFileSync(forced).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});

describe.skipIf(onPostgres)('a database ahead of this version (SQLite)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tessera-backup-ahead-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is backed up with a note saying so, and its restore is refused', async () => {
    const dataDir = join(root, 'data');
    await tessera(['workspace', 'create', '--name', 'Ahead', '--data', dataDir]);
    const db = new SqliteDatabase(join(dataDir, 'tessera.db'));
    db.prepare(
      `insert into kysely_migration (name, timestamp) values ('9999-from-the-future', '2030-01-01T00:00:00.000Z')`,
    ).run();
    db.close();
    const file = join(root, 'ahead.db');
    const answer = await tessera(['backup', '--to', file, '--data', dataDir]);
    expect(answer.schema).toBe('ahead');
    expect(answer.notes.join(' ')).toMatch(/migrated by a newer Tessera.*9999-from-the-future/);
    const restore = await runTessera(['restore', file, '--data', join(root, 'restored')]);
    expect(restore.code).toBe(2);
    expect(JSON.parse(restore.stderr).detail).toMatch(
      /newer Tessera.*Restore it with the Tessera that made it/,
    );
  });
});

describe.runIf(onPostgres)('backup on PostgreSQL', () => {
  const root = mkdtempSync(join(tmpdir(), 'tessera-backup-pg-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("holds the data folder's files and says the database is pg_dump's", async () => {
    const dataDir = join(root, 'data');
    await workspaceWithKey(dataDir, 'On PostgreSQL');
    const file = join(root, 'files.db');
    const answer = await tessera(['backup', '--to', file, '--data', dataDir]);
    expect(answer).toMatchObject({ source: 'postgres', tables: 0, rows: 0 });
    expect(answer.files).toEqual(expect.arrayContaining(['instance.key', 'oauth/signing-keys.json']));
    expect(answer.notes.join(' ')).toMatch(/pg_dump/);
    const restoredDir = join(root, 'restored');
    const restored = await tessera(['restore', file, '--data', restoredDir]);
    expect(restored).toMatchObject({ source: 'postgres', files: answer.files });
    expect(restored.notes.join(' ')).toMatch(/pg_restore/);
    expect(readFileSync(join(restoredDir, 'instance.key'))).toEqual(
      readFileSync(join(dataDir, 'instance.key')),
    );
    expect(() => statSync(join(restoredDir, 'tessera.db'))).toThrow();
  });
});

function fetchJwks(s: Spawned) {
  return import('undici').then(({ fetch }) => fetch(`${s.origin}/oauth/jwks`, { dispatcher: s.agent }));
}
