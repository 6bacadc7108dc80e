// The README's promise on a fresh checkout: `npm start` serves HTTPS with a self-signed
// certificate made on first start, data in ./data, and prints the REST URL, the MCP URL and the
// demonstration key, which then works. The checkout holds exactly the files git would clone
// (tracked and new, not ignored ones); the installed packages are linked in, since CI's own
// `npm ci` on a clean clone already proves the install.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..');
let checkout: string;
let server: ChildProcess | undefined;
let output = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  checkout = mkdtempSync(join(tmpdir(), 'tessera-clone-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && existsSync(join(repo, f)));
  for (const file of files) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    cpSync(join(repo, file), join(checkout, file));
  }
  symlinkSync(join(repo, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const port = await freePort();
  const { TESSERA_DATA: _ignored, ...env } = process.env;
  server = spawn('npm', ['start'], {
    cwd: checkout,
    env: { ...env, PORT: String(port), TESSERA_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  server.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  server.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const started = Date.now();
  while (!output.includes('Try:') && Date.now() - started < 50_000)
    await new Promise((r) => setTimeout(r, 100));
});

afterAll(() => {
  if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  rmSync(checkout, { recursive: true, force: true });
});

describe('npm start on a fresh checkout', () => {
  it('prints the REST base URL, the MCP URL and the demonstration key', () => {
    expect(output).toMatch(/REST API:\s+https:\/\/localhost:\d+\/api\/v1/);
    expect(output).toMatch(/MCP:\s+https:\/\/localhost:\d+\/mcp/);
    expect(output).toMatch(/abk_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}/);
    // And how to get a writable workspace for real events (no sample data: it would send no
    // e-mail) and a key of one's own; the sample workspace apart, to try things out.
    expect(output).toContain('npx tessera workspace create --name "My events"\n');
    expect(output).not.toContain('"My events" --sample');
    expect(output).toMatch(
      /sample data.*sends no e-mail.*\n\s+npx tessera workspace create --name "Try-out" --sample\n/,
    );
    expect(output).toContain(
      'npx tessera key create --workspace <workspaceId> --name "My key" --preset everything',
    );
  });

  it('keeps its data in ./data, with a self-signed certificate made on first start', () => {
    expect(existsSync(join(checkout, 'data', 'tessera.db'))).toBe(true);
    expect(existsSync(join(checkout, 'data', 'tls', 'localhost-cert.pem'))).toBe(true);
  });

  it('answers the printed demonstration key over HTTPS with the demonstration workspace', async () => {
    const restUrl = /REST API:\s+(\S+)/.exec(output)![1]!;
    const key = /(abk_[A-Za-z0-9]{12}_[A-Za-z0-9]{43})/.exec(output)![1]!;
    const ca = readFileSync(join(checkout, 'data', 'tls', 'localhost-cert.pem'), 'utf8');
    const dispatcher = new Agent({ connect: { ca } });
    const res = await fetch(`${restUrl}/workspace`, {
      headers: { authorization: `Bearer ${key}` },
      dispatcher,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { demonstration: boolean; events: number };
    expect(body.demonstration).toBe(true);
    expect(body.events).toBeGreaterThan(0);
    await dispatcher.close();
  });
});
