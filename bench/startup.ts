// Start-up and memory: how long `npm start` takes to its first answer on an existing data folder,
// and how much memory the server holds after the whole bench.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { benchSecretKey } from './processes';

export interface StartupResult {
  /** Milliseconds from starting `npm start` to the first 200 of GET /me, each run. */
  runs: number[];
  median: number;
}

/** Resident memory of a process in MiB (Linux's /proc, else ps). */
export function residentMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    if (kib) return Number(kib) / 1024;
  } catch {
    // Not Linux: ask ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}

/** Milliseconds from `started` to the first 200 of GET /me with the key, polling every 5 ms. */
export async function firstAnswer(origin: string, ca: string, key: string, started: number): Promise<number> {
  const agent = new Agent({ connect: { ca, servername: 'localhost' }, keepAliveTimeout: 10 });
  try {
    for (;;) {
      if (performance.now() - started > 30_000) throw new Error(`${origin} gave no answer within 30 s`);
      try {
        const res = await request(`${origin}/api/v1/me`, {
          headers: { authorization: `Bearer ${key}` },
          dispatcher: agent,
        });
        await res.body.text();
        if (res.statusCode === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await agent.close();
  }
}

/** Runs `npm start` on the data folder `runs` times, timing each to its first answer. */
export async function measureStartup(options: {
  root: string;
  dataDir: string;
  port: number;
  ca: string;
  key: string;
  runs: number;
}): Promise<StartupResult> {
  const runs: number[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    const started = performance.now();
    const child = spawn('npm', ['start'], {
      cwd: options.root,
      env: {
        ...process.env,
        TESSERA_DATA: options.dataDir,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        TESSERA_LOG_LEVEL: 'silent',
        // The server before it ran with this key: another would be refused (the secrets' key check).
        TESSERA_SECRET_KEY: benchSecretKey,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group, so that npm and the server it starts end together.
      detached: true,
    });
    // What it said before it ended, for the error when it never answers.
    let said = '';
    child.stderr!.on('data', (chunk) => {
      said += String(chunk);
    });
    const exited = new Promise((done) => child.once('exit', done));
    try {
      runs.push(await firstAnswer(`https://localhost:${options.port}`, options.ca, options.key, started));
    } catch (error) {
      throw new Error(`${(error as Error).message}; npm start said: ${said.slice(-2000)}`);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }
  const sorted = [...runs].sort((a, b) => a - b);
  return { runs, median: sorted[Math.floor(sorted.length / 2)]! };
}
