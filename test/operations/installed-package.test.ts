// The package as installed for running it (issue 51): the files `npm pack` puts in its tarball,
// and beside them only the packages `npm install --omit=dev` brings (linked from this checkout's).
// esbuild, tsx and postject are development dependencies, so such an install runs the bundle it
// was given (dist/, made by `npm run build`) and never builds; with no bundle it says how to make
// one. The bundle itself imports no build tool: it serves the API and the scanner page.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';

const root = resolve(import.meta.dirname, '..', '..');
const buildTools = ['esbuild', 'tsx', 'postject'];
let installed: string;
let server: ChildProcess | undefined;
let agent: Agent | undefined;

/** The top-level packages of package-lock.json an install without the development dependencies brings. */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages as Record<string, { dev?: boolean; devOptional?: boolean }>)
    .filter(
      ([path, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !entry.dev && !entry.devOptional,
    )
    .map(([path]) => path.slice('node_modules/'.length));
}

/** The files of the package's tarball (`npm pack`, listing only: nothing is built or written). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
  });
  return (JSON.parse(out)[0].files as { path: string }[]).map((file) => file.path);
}

/** Runs the installed command; answers its exit status and output. */
function tessera(args: string[]) {
  const { TESSERA_DATA: _ignored, ...env } = process.env;
  return spawnSync(process.execPath, [join(installed, 'bin', 'tessera.mjs'), ...args], {
    cwd: installed,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

beforeAll(() => {
  installed = mkdtempSync(join(tmpdir(), 'tessera-installed-'));
  for (const file of packedFiles()) {
    mkdirSync(dirname(join(installed, file)), { recursive: true });
    cpSync(join(root, file), join(installed, file));
  }
  for (const name of productionPackages()) {
    if (!existsSync(join(root, 'node_modules', name))) continue; // another platform's optional build
    mkdirSync(dirname(join(installed, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(installed, 'node_modules', name), 'dir');
  }
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server!.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await agent?.close();
  if (installed) rmSync(installed, { recursive: true, force: true });
});

describe('the installed package, without the development dependencies', () => {
  it('brings none of the build tools, and carries its built bundle and scanner script', () => {
    const brought = productionPackages();
    expect(brought).toContain('better-sqlite3');
    expect(buildTools.filter((tool) => brought.includes(tool))).toEqual([]);
    for (const tool of buildTools)
      expect(existsSync(join(installed, 'node_modules', tool)), tool).toBe(false);
    for (const file of ['dist/tessera.mjs', 'dist/scan-app/scan.js'])
      expect(existsSync(join(installed, file)), file).toBe(true);
    // Not the single executable a `npm run build:binary` may have left in dist/.
    expect(existsSync(join(installed, 'dist', 'tessera'))).toBe(false);
  });

  it('says how to build it when its bundle is missing, rather than failing on a missing esbuild', () => {
    const dist = join(installed, 'dist');
    renameSync(dist, `${dist}.away`);
    try {
      const run = tessera(['--version']);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('dist/tessera.mjs is missing');
      expect(run.stderr).toContain('npm run build');
      expect(run.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    } finally {
      renameSync(`${dist}.away`, dist);
    }
  });

  it('runs its bundle as it is: prints its version, serves the API and the scanner page', async () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    const run = tessera(['--version']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${version}\n`);

    const { TESSERA_DATA: _ignored, ...env } = process.env;
    server = spawn(process.execPath, [join(installed, 'bin', 'tessera.mjs'), 'serve', '--port', '0'], {
      cwd: installed,
      env: { ...env, TESSERA_LOG_LEVEL: 'warn' },
    });
    let log = '';
    const origin = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no banner within 30 s:\n${log}`)), 30_000);
      server!.stderr!.on('data', (chunk) => {
        log += String(chunk);
      });
      server!.stdout!.on('data', (chunk) => {
        log += String(chunk);
        const rest = /REST API:\s+(https:\/\/\S+)\/api\/v1/.exec(log);
        if (!log.includes('Tessera is running') || !rest) return;
        clearTimeout(timer);
        done(rest[1]!);
      });
      server!.once('exit', (code) => fail(new Error(`tessera serve exited (${code}):\n${log}`)));
    });
    const ca = readFileSync(join(installed, 'data', 'tls', 'localhost-cert.pem'), 'utf8');
    agent = new Agent({ connect: { ca } });
    const me = await fetch(`${origin}/api/v1/me`, {
      headers: { authorization: `Bearer ${demoKey.key}` },
      dispatcher: agent,
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { workspaceName: string }).workspaceName).toBe('Tessera demonstration');
    for (const [path, file] of [
      ['/scan/scan.js', 'dist/scan-app/scan.js'],
      ['/scan/scan.css', 'rest/pages/scan-app/scan.css'],
    ] as const) {
      const res = await fetch(`${origin}${path}`, { dispatcher: agent });
      expect(res.status, path).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(installed, file))), path).toBe(
        true,
      );
    }
    const decoder = await fetch(`${origin}/scan/jsqr.js`, { dispatcher: agent });
    expect(decoder.status).toBe(200);
    expect(await decoder.text()).toContain('jsQR');
  });
});
