// The `tessera` command (README "Operating contract"), run as a child process against the data
// folder of a running server, as an operator would: JSON on stdout, clear errors and a non-zero
// exit on bad arguments.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listKeys } from '../core/admin/api-keys';
import { expectProblem } from './support/fixtures';
import { startTestServer, type TestServer } from './support/server';
import { runTessera as tessera } from './support/spawned';

let t: TestServer;

const withData = (args: string[]) => [...args, '--data', t.dataDir];

async function json(args: string[]): Promise<any> {
  const run = await tessera(withData(args));
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

let workspaceId: string;

let sampleRun: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  t = await startTestServer();
  sampleRun = await tessera(withData(['workspace', 'create', '--name', 'CLI workspace', '--sample']));
  ({ workspaceId } = JSON.parse(sampleRun.stdout));
});
afterAll(async () => t.close());

describe.concurrent('workspace create', () => {
  it('prints JSON with workspaceId and name, and --sample fills it with events', async () => {
    expect(sampleRun.code, sampleRun.stderr).toBe(0);
    expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    const { key } = await t.key({ workspaceId, preset: 'dashboard' });
    const ws = await t.api('/workspace', { key });
    expect(ws.body).toMatchObject({ workspaceId, name: 'CLI workspace', demonstration: false });
    expect(ws.body.events).toBeGreaterThan(0);
  });

  it('makes an empty workspace without --sample, and reads the data folder from TESSERA_DATA', async () => {
    const run = await tessera(['workspace', 'create', '--name', 'Empty one'], { TESSERA_DATA: t.dataDir });
    expect(run.code).toBe(0);
    const made = JSON.parse(run.stdout);
    expect(made).toEqual({
      workspaceId: expect.any(String),
      name: 'Empty one',
      sample: false,
      sendsEmail: true,
    });
    expect(run.stderr).toBe('');
    const { key } = await t.key({ workspaceId: made.workspaceId, preset: 'dashboard' });
    expect((await t.api('/workspace', { key })).body.events).toBe(0);
  });
});

describe('workspace create --sample', () => {
  it('says where it is made that a sample workspace sends no e-mail: in its answer and on stderr', () => {
    expect(JSON.parse(sampleRun.stdout)).toMatchObject({ sample: true, sendsEmail: false });
    expect(sampleRun.stderr).toMatch(/sample workspace sends no e-mail/);
    expect(sampleRun.stderr).toMatch(/without --sample/);
  });
});

describe.concurrent('key create', () => {
  it('prints apiKeyId, key, prefix, scopes and expiresUtc for a preset; the key works at once', async () => {
    const made = await json([
      'key',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'Dashboard',
      '--preset',
      'dashboard',
      '--expires',
      '30',
    ]);
    expect(made).toMatchObject({
      apiKeyId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      key: expect.stringMatching(/^abk_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}$/),
      scopes: ['events:read', 'tickets:read', 'orders:read', 'checkins:read', 'program:read'],
    });
    expect(made.prefix).toBe(made.key.slice(0, 16));
    const days = (Date.parse(made.expiresUtc) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    const me = await t.api('/me', { key: made.key });
    expect(me.body).toMatchObject({ keyName: 'Dashboard', workspaceId, expiresUtc: made.expiresUtc });
  });

  it('makes a key with --scopes and --expires never', async () => {
    const made = await json([
      'key',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'Door app',
      '--scopes',
      'checkins:write,events:read',
      '--expires',
      'never',
    ]);
    expect(made.scopes).toEqual(['events:read', 'checkins:write']);
    expect(made.expiresUtc).toBeNull();
  });

  it('makes a legacy key whose read and write are rewritten', async () => {
    const made = await json([
      'key',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'Old',
      '--legacy',
      'read,write',
    ]);
    expect(made.scopes).toContain('people:read');
    expect(made.scopes).toContain('attendees:write');
    expect(made.scopes).toContain('checkins:write');
    expect(made.scopes).not.toContain('events:write');
  });
});

describe.concurrent('key list, revoke and activity', () => {
  it('lists the keys of a workspace and never shows their secrets', async () => {
    const made = await t.key({ workspaceId, name: 'Listed', preset: 'assistant' });
    const run = await tessera(withData(['key', 'list', '--workspace', workspaceId]));
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as any[];
    const listed = list.find((k) => k.apiKeyId === made.apiKeyId);
    expect(listed).toMatchObject({ name: 'Listed', prefix: made.prefix, status: 'active' });
    expect(run.stdout).not.toContain(made.key.slice(17));
    expect(run.stdout).not.toContain('secret');
    for (const k of list) expect(Object.keys(k)).not.toContain('key');
  });

  it('revokes a key: the next call is refused with 401 keyRevoked and the list shows it revoked', async () => {
    const made = await t.key({ workspaceId, name: 'Doomed', preset: 'dashboard' });
    expect((await t.api('/me', { key: made.key })).status).toBe(200);
    const revoked = await json(['key', 'revoke', made.apiKeyId]);
    expect(revoked).toMatchObject({ apiKeyId: made.apiKeyId, revokedUtc: expect.any(String) });
    expectProblem(await t.api('/me', { key: made.key }), 401, 'keyRevoked');
    const list = await listKeys(t.server.services.db, t.server.services.clock, workspaceId);
    expect(list.find((k) => k.apiKeyId === made.apiKeyId)?.status).toBe('revoked');
  });

  it("prints a key's activity: route, outcome and duration, newest first", async () => {
    const made = await t.key({ workspaceId, name: 'Busy', preset: 'dashboard' });
    await t.api('/me', { key: made.key });
    await t.api('/events?limit=1', { key: made.key, method: 'POST', body: {} });
    await t.server.services.activity.flush();
    const activity = await json(['key', 'activity', made.apiKeyId]);
    expect(activity.map((a: any) => [a.operation, a.outcome])).toEqual([
      ['POST /api/v1/events', 'missingScope'],
      ['GET /api/v1/me', 'ok'],
    ]);
    for (const a of activity) expect(typeof a.durationMs).toBe('number');
  });
});

describe.concurrent('demo key', () => {
  it('prints the published demonstration key, which reads the demonstration workspace', async () => {
    const run = await tessera(['demo', 'key']);
    expect(run.code).toBe(0);
    const key = run.stdout.trim();
    expect(key).toBe(t.server.demoKey);
    expect((await t.api('/workspace', { key })).body.demonstration).toBe(true);
  });

  it('takes --data as every command does', async () => {
    const run = await tessera(withData(['demo', 'key']));
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(t.server.demoKey);
  });
});

describe('workspace list and help', () => {
  it('lists the workspaces of the data folder, the demonstration first, with their events and keys', async () => {
    const list = await json(['workspace', 'list']);
    expect(list[0]).toMatchObject({
      name: 'Tessera demonstration',
      demonstration: true,
      sample: false,
      sendsEmail: false,
    });
    const mine = list.find((w: any) => w.workspaceId === workspaceId);
    expect(mine).toMatchObject({
      name: 'CLI workspace',
      demonstration: false,
      sample: true,
      sendsEmail: false,
      keys: expect.any(Number),
    });
    expect(mine.events).toBeGreaterThan(3);
  });

  it('shows examples in --help and exits 0', async () => {
    for (const args of [['--help'], ['key', 'create', '--help'], ['workspace', 'create', '--help']]) {
      const run = await tessera(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).toMatch(/Examples:\n\s+npx tessera /);
    }
  });
});

describe.concurrent('bad arguments', () => {
  // WS stands for the workspace made in beforeAll (not known yet when the cases are listed).
  const create = (extra: string[]) => ['key', 'create', '--workspace', 'WS', ...extra];
  const cases: [string, string[], RegExp][] = [
    ['an unknown preset', create(['--name', 'x', '--preset', 'boss']), /preset/i],
    ['a missing --name', create(['--preset', 'dashboard']), /--name/],
    ['a bad --expires', create(['--name', 'x', '--preset', 'dashboard', '--expires', '45']), /expires/],
    ['neither preset nor scopes', create(['--name', 'x']), /--preset|--scopes/],
    [
      'a workspace id that is not a UUID',
      ['key', 'create', '--workspace', 'ws-1', '--name', 'x', '--preset', 'dashboard'],
      /UUID/,
    ],
    [
      'a workspace that does not exist',
      [
        'key',
        'create',
        '--workspace',
        '00000000-0000-4000-8000-0000000000aa',
        '--name',
        'x',
        '--preset',
        'dashboard',
      ],
      /No workspace/,
    ],
    [
      'revoking a key that does not exist',
      ['key', 'revoke', '00000000-0000-4000-8000-0000000000bb'],
      /No API key/,
    ],
  ];

  it.each(cases)('exits with status 2 and a JSON error on stderr for %s', async (_name, args, message) => {
    const run = await tessera(withData(args.map((a) => (a === 'WS' ? workspaceId : a))));
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stderr);
    expect(Object.keys(error).sort()).toEqual(['detail', 'error']);
    expect(error.detail).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it.each([
    ['an unknown command', ['bogus'], /unknown command 'bogus'.*--help/],
    ['an unknown option', ['workspace', 'list', '--colour'], /unknown option '--colour'/],
    ['a missing argument', ['key', 'revoke'], /missing required argument 'apiKeyId'/],
  ])(
    'answers an argument-parser mistake (%s) as the same JSON with status 2',
    async (_name, args, message) => {
      const run = await tessera(args);
      expect(run.code).toBe(2);
      const error = JSON.parse(run.stderr);
      expect(error).toMatchObject({ error: 'invalidArguments', detail: expect.stringMatching(message) });
      expect(run.stdout).toBe('');
    },
  );

  it('refuses an unknown scope, naming it, and makes no key', async () => {
    const run = await tessera(
      withData([
        'key',
        'create',
        '--workspace',
        workspaceId,
        '--name',
        'Refused key',
        '--scopes',
        'events:read,events:delete',
      ]),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/events:delete/);
    expect(run.stdout).toBe('');
    const list = await listKeys(t.server.services.db, t.server.services.clock, workspaceId);
    expect(list.map((k) => k.name)).not.toContain('Refused key');
  });
});

describe('serve on a port already in use', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, 'localhost', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  /** stderr without the runtime notice a package prints on older Node versions. */
  const ownLines = (stderr: string) =>
    stderr.split('\n').filter((line) => line !== '' && !line.startsWith('oidc-provider WARNING'));

  it.each([
    ['--port', ['--port', 'PORT'], {}],
    ['PORT', [], { PORT: 'PORT' }],
  ])(
    'says so in one line naming the port and how to choose another (%s), status 2',
    async (_how, flags, env) => {
      const data = mkdtempSync(join(tmpdir(), 'tessera-busy-'));
      const run = await tessera(
        ['serve', '--data', data, ...flags.map((f) => (f === 'PORT' ? String(port) : f))],
        Object.fromEntries(Object.entries(env).map(([name]) => [name, String(port)])),
      );
      expect(run.code).toBe(2);
      const lines = ownLines(run.stderr);
      expect(lines, run.stderr).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toEqual({
        error: 'invalidArguments',
        detail: `Port ${port} on localhost is already in use. Choose another with --port N or the PORT environment variable.`,
      });
      expect(run.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
      expect(run.stdout).toBe('');
    },
  );
});

describe('an API key given where an id goes', () => {
  const pasted = `abk_AbCdEfGh1234_${'s'.repeat(43)}`;
  it.each([
    ['key revoke', ['key', 'revoke', pasted]],
    ['key activity', ['key', 'activity', pasted]],
    ['--workspace', ['key', 'list', '--workspace', pasted]],
  ])('is refused (%s) naming the key by its prefix only', async (_where, args) => {
    const run = await tessera(withData(args));
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('s'.repeat(43));
    expect(JSON.parse(run.stderr).detail).toContain('abk_AbCdEfGh1234_…');
  });

  it('says to give the key’s id instead', async () => {
    const run = await tessera(withData(['key', 'revoke', pasted]));
    expect(JSON.parse(run.stderr).detail).toMatch(/is an API key: give the key's id/);
  });
});
