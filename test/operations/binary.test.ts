// The single executable (issue 28, "One file to run"): scripts/build-binary.mjs makes it, and the
// file copied alone into an empty folder (no node_modules, no package.json, no node on PATH, HOME
// and TMPDIR inside the folder) serves HTTPS with its data folder made on start, serves the files it
// carries inside (Scalar, jsQR, the scanner's), writes to SQLite with its packaged addon (the
// checkpoint thread too, from the driver it writes to its cache) and runs the CLI's commands
// against the same data folder while it serves.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { pageFiles } from '../../rest/pages/page-files';
import { pdfText } from '../support/pdf-text';

const root = resolve(import.meta.dirname, '..', '..');
const version: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const run = promisify(execFile);

let scratch: string;
/** The empty folder the executable is copied into, alone; its cwd. */
let folder: string;
let env: Record<string, string>;
let server: ChildProcess;
let log = '';
let origin: string;
let agent: Agent;
let built: Buffer;

/** Runs `./tessera ARGS` in the folder; answers its JSON output. */
async function tessera(args: string[]): Promise<any> {
  const { stdout } = await run('./tessera', args, { cwd: folder, env, timeout: 30_000 });
  return JSON.parse(stdout);
}

async function get(path: string, key?: string) {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  return undiciFetch(`${origin}${path}`, { headers, dispatcher: agent });
}

async function post(path: string, key: string, body: unknown) {
  const res = await undiciFetch(`${origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    dispatcher: agent,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Starts `./tessera serve` in the folder on a free port and waits for its banner. */
function serve(): Promise<void> {
  server = spawn('./tessera', ['serve', '--port', '0', '--host', '127.0.0.1'], { cwd: folder, env });
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no banner within 30 s:\n${log}`)), 30_000);
    server.stderr!.on('data', (chunk) => {
      log += String(chunk);
    });
    server.stdout!.on('data', (chunk) => {
      log += String(chunk);
      const rest = /REST API:\s+(https:\/\/\S+)\/api\/v1/.exec(log);
      if (!log.includes('Tessera is running') || !rest) return;
      clearTimeout(timer);
      origin = rest[1]!;
      const ca = readFileSync(join(folder, 'data', 'tls', 'localhost-cert.pem'), 'utf8');
      agent = new Agent({ connect: { ca, servername: 'localhost' } });
      done();
    });
    server.once('exit', (code) => fail(new Error(`tessera serve exited (${code}):\n${log}`)));
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'tessera-binary-test-'));
  const out = join(scratch, 'build', 'tessera');
  await run(process.execPath, [join(root, 'scripts', 'build-binary.mjs'), '--out', out], { cwd: root });
  built = readFileSync(out);
  folder = join(scratch, 'run');
  mkdirSync(folder);
  copyFileSync(out, join(folder, 'tessera'));
  chmodSync(join(folder, 'tessera'), 0o755);
  rmSync(join(scratch, 'build'), { recursive: true });
  for (const own of ['home', 'tmp', 'no-bin']) mkdirSync(join(folder, own));
  // Nothing of the machine's environment: no node on PATH, home and temporary folder inside.
  env = {
    PATH: join(folder, 'no-bin'),
    HOME: join(folder, 'home'),
    TMPDIR: join(folder, 'tmp'),
    TESSERA_LOG_LEVEL: 'warn',
    TESSERA_RATE_LIMIT: '1000000',
  };
  await serve();
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await agent?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the single executable', () => {
  it('carries no path of the checkout it was built in', () => {
    expect(built.includes(root)).toBe(false);
  });

  it('prints its version', async () => {
    const { stdout } = await run('./tessera', ['--version'], { cwd: folder, env });
    expect(stdout).toBe(`${version}\n`);
  });

  it('serves HTTPS from an empty folder, making ./data with the demonstration workspace', async () => {
    expect(existsSync(join(folder, 'data', 'tessera.db'))).toBe(true);
    expect(log).toContain(`Demonstration key (read-only workspace): ${demoKey.key}`);
    // Its examples name the command as it was run, not npx.
    expect(log).toContain('./tessera workspace create --name "My events"\n');
    expect(log).toContain('./tessera workspace create --name "Try-out" --sample\n');
    expect(log).not.toContain('npx tessera');
    const me = await get('/api/v1/me', demoKey.key);
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).workspaceName).toBe('Tessera demonstration');
  });

  it('serves the files it carries: the reference, jsQR and the scanner page', async () => {
    const page = await get('/developers');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/developers/assets/scalar.js');
    const served: [string, keyof typeof pageFiles.files][] = [
      ['/developers/assets/scalar.js', 'scalar-standalone.js'],
      ['/scan/jsqr.js', 'jsQR.js'],
      ['/scan/scan.js', 'scan-app/scan.js'],
      ['/scan/icon-192.png', 'scan-app/icon-192.png'],
    ];
    for (const [path, name] of served) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(readFileSync(pageFiles.files[name].path())), path).toBe(true);
    }
  });

  it('prints an invoice as a PDF in the fonts it carries (no file of pdfkit or DejaVu beside it)', async () => {
    const events = ((await (await get('/api/v1/events?limit=100', demoKey.key)).json()) as any).data;
    let printed = false;
    for (const event of events) {
      const list = await get(`/api/v1/events/${event.eventId}/invoices?limit=1`, demoKey.key);
      if (list.status !== 200) continue;
      const [invoice] = ((await list.json()) as any).data;
      if (!invoice) continue;
      const res = await get(`/api/v1/events/${event.eventId}/invoices/${invoice.invoiceId}/pdf`, demoKey.key);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const pdf = Buffer.from(await res.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
      expect(await pdfText(pdf)).toContain(invoice.number);
      printed = true;
      break;
    }
    expect(printed, 'the demonstration workspace has an invoice').toBe(true);
  });

  it('answers MCP: tools/list through the SDK client', async () => {
    const client = new Client({ name: 'binary-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      fetch: ((input: any, init?: any) =>
        undiciFetch(input, { ...init, dispatcher: agent })) as unknown as typeof fetch,
      requestInit: { headers: { authorization: `Bearer ${demoKey.key}` } },
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('list_events');
    } finally {
      await client.close();
    }
  });

  it('runs the CLI beside the server, and the server writes what the CLI made', async () => {
    const { workspaceId } = await tessera(['workspace', 'create', '--name', 'Binary', '--sample']);
    const made = await tessera([
      ...['key', 'create', '--workspace', workspaceId, '--name', 'k'],
      ...['--preset', 'everything', '--expires', 'never'],
    ]);
    const keys = await tessera(['key', 'list', '--workspace', workspaceId]);
    expect(JSON.stringify(keys)).toContain(made.key.slice(0, 12));
    copyFileSync(join(root, 'docs', 'import-example.json'), join(folder, 'import.json'));
    const imported = await tessera(['import', '--workspace', workspaceId, 'import.json']);
    expect(imported.created.events).toBeGreaterThan(0);

    // A registration and its check-in (a free ticket of a sample event with a door): SQLite writes
    // through the packaged addon.
    const events = (await (await get('/api/v1/events?limit=100', made.key)).json()) as any;
    const meetup = events.data.find((e: any) => e.name.startsWith('Tokyo Frontend Meetup'));
    const types = (await (
      await get(`/api/v1/events/${meetup.eventId}/ticket-types`, made.key)
    ).json()) as any;
    const free = types.data.find((t: any) => t.price === 0);
    const attendee = {
      ticketTypeId: free.ticketTypeId,
      firstName: 'Bina',
      lastName: 'Ry',
      email: 'bina@example.org',
    };
    const registered = await post(`/api/v1/events/${meetup.eventId}/attendees`, made.key, {
      attendees: [attendee],
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const attendeeId = registered.body.attendees[0].attendeeId;
    const checkedIn = await post(
      `/api/v1/events/${meetup.eventId}/attendees/${attendeeId}/check-in`,
      made.key,
      {},
    );
    expect(checkedIn.status, JSON.stringify(checkedIn.body)).toBe(200);
  });

  it('refuses a cache folder that others may write to: a planted addon is never loaded', async () => {
    const shared = join(scratch, 'shared-tmp');
    mkdirSync(join(shared, `tessera-files-${process.getuid!()}`), { recursive: true });
    chmodSync(join(shared, `tessera-files-${process.getuid!()}`), 0o777);
    const refused = await run('./tessera', ['workspace', 'list'], {
      cwd: folder,
      env: { ...env, TMPDIR: shared },
    }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).detail).toContain('must be a folder of this user');
  });

  it('keeps everything inside its folder: the addon and driver cached under TMPDIR, no error logged', async () => {
    // Time for the checkpoint thread to run a few times after the writes above.
    await new Promise((r) => setTimeout(r, 300));
    expect(readdirSync(folder).sort()).toEqual(['data', 'home', 'import.json', 'no-bin', 'tessera', 'tmp']);
    const cache = readdirSync(join(folder, 'tmp', `tessera-files-${process.getuid!()}`));
    expect(cache.some((f) => f.endsWith('-better_sqlite3.node'))).toBe(true);
    // Written only when the checkpoint thread starts: it loads the driver from there.
    expect(cache.some((f) => f.endsWith('-better-sqlite3.cjs'))).toBe(true);
    expect(log).not.toMatch(/checkpoint|"level":(40|50|60)/);
  });
});

/** The service's source files (not tests or benches), by path from the repository's root. */
function serviceSources(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return dir === root && !['src', 'core', 'db', 'rest', 'mcp'].includes(entry.name)
        ? []
        : serviceSources(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

describe('SQLite connections', () => {
  // Inside the executable the driver cannot find its addon by itself: a connection opened without
  // these options works from the sources and fails only in the binary.
  it('every one the service opens takes the packaged addon (db/sqlite-driver.ts openSqliteFile)', () => {
    const constructing: string[] = [];
    for (const file of serviceSources()) {
      const source = readFileSync(join(root, file), 'utf8');
      // A value import of the driver is what could construct a connection without the options.
      if (/^import (\w+) from 'better-sqlite3';$/m.test(source)) constructing.push(file);
    }
    expect(constructing).toEqual(['db/sqlite-driver.ts']);
    const driver = readFileSync(join(root, 'db', 'sqlite-driver.ts'), 'utf8');
    expect(driver).toMatch(/new SqliteDatabase\(file, \{ \.\.\.options, \.\.\.sqliteDriverOptions\(\) \}\)/);
  });
});
