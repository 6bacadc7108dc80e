// A throwaway PostgreSQL cluster for tests and benches: made with the machine's own server binaries
// (initdb, pg_ctl) in a temporary folder, listening on loopback on a free port, and removed
// afterwards. Durability is switched off (fsync, full-page writes) unless asked for (benches that
// size a deployment want PostgreSQL's defaults): nothing in it is meant to last.
// When the process runs as root (containers, CI), the server runs as the `postgres` user, since
// PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const missingBinaries =
  "PostgreSQL's server binaries (initdb, pg_ctl) were not found on PATH or in /usr/lib/postgresql/*/bin. " +
  'On Debian or Ubuntu: apt-get install postgresql (the server package; the service need not run).';

function findBinary(name) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort().reverse()
    : [];
  for (const version of versions) {
    const path = join('/usr/lib/postgresql', version, 'bin', name);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Whether this machine can make a cluster. */
export function postgresAvailable() {
  return findBinary('initdb') !== null && findBinary('pg_ctl') !== null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * Starts a cluster with a database `tessera` owned by the user `tessera` (trusted on loopback).
 * Answers its URL (over TCP, and through its Unix socket) and a stop() that ends the server and
 * removes the folder. `durable` keeps PostgreSQL's defaults for fsync, synchronous commit and
 * full-page writes.
 */
export async function startCluster({ durable = false } = {}) {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  if (!initdb || !pgCtl) throw new Error(missingBinaries);
  const root = mkdtempSync(join(tmpdir(), 'tessera-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(root, uid, gid);
  }
  const run = (command, args) => {
    const [file, ...rest] = [...prefix, command, ...args];
    execFileSync(file, rest, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const port = await freePort();
  try {
    run(initdb, ['-D', data, '-U', 'tessera', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const options = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      ...(durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      '-c max_connections=200',
    ].join(' ');
    run(pgCtl, ['-D', data, '-l', join(root, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
    // createdb sits beside the real pg_ctl (PATH may hold only links to some of the binaries).
    run(join(dirname(realpathSync(pgCtl)), 'createdb'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'tessera',
      'tessera',
    ]);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`The throwaway PostgreSQL cluster did not start: ${error.stderr ?? error.message}`);
  }
  let stopped = false;
  return {
    url: `postgres://tessera@127.0.0.1:${port}/tessera`,
    /** The same database through the cluster's Unix socket, as a server on its machine should connect. */
    socketUrl: `postgres://tessera@localhost:${port}/tessera?host=${encodeURIComponent(root)}`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
