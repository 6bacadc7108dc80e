// The single executable (scripts/build-binary.mjs): its size, how long it takes to build, and how
// long it takes from exec to answering HTTPS, copied alone into an empty folder as a user deploys
// it. Run alone with `node --import tsx bench/binary.ts`; `npm run bench` adds its rows.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { demoKey } from '../core/admin/demo-workspace';
// The first 200 of GET /me, as `npm start`'s row waits for, so the two rows compare.
import { firstAnswer } from './startup';

export interface BinaryResult {
  sizeMB: number;
  buildSeconds: number;
  /** Milliseconds from exec to the probe's first 200, each run, on a data folder made before. */
  runs: number[];
  median: number;
}

/** Builds the executable, copies it alone into an empty folder and times `./tessera serve` there. */
export async function measureBinary(options: {
  root: string;
  port: number;
  runs: number;
}): Promise<BinaryResult> {
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-bench-binary-'));
  try {
    const built = join(scratch, 'build', 'tessera');
    const buildStarted = performance.now();
    execFileSync(process.execPath, [join(options.root, 'scripts', 'build-binary.mjs'), '--out', built], {
      stdio: 'ignore',
    });
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    const folder = join(scratch, 'run');
    mkdirSync(join(folder, 'tmp'), { recursive: true });
    copyFileSync(built, join(folder, 'tessera'));
    execFileSync('chmod', ['755', join(folder, 'tessera')]);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: folder,
      TMPDIR: join(folder, 'tmp'),
      PORT: String(options.port),
      HOST: '127.0.0.1',
      TESSERA_LOG_LEVEL: 'silent',
    };
    const runs: number[] = [];
    // The first run makes the data folder (database, demonstration workspace, certificate) and the
    // addon's cache; it is not counted, as `npm start`'s row times an existing data folder.
    for (let i = 0; i <= options.runs; i += 1) {
      const started = performance.now();
      const child = spawn('./tessera', ['serve'], { cwd: folder, env, stdio: 'ignore' });
      const exited = new Promise((done) => child.once('exit', done));
      try {
        const certFile = join(folder, 'data', 'tls', 'localhost-cert.pem');
        while (!statSync(certFile, { throwIfNoEntry: false })) await new Promise((r) => setTimeout(r, 5));
        const ms = await firstAnswer(
          `https://localhost:${options.port}`,
          readFileSync(certFile, 'utf8'),
          demoKey.key,
          started,
        );
        if (i > 0) runs.push(ms);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    }
    const sorted = [...runs].sort((a, b) => a - b);
    return {
      sizeMB: statSync(join(folder, 'tessera')).size / 1e6,
      buildSeconds,
      runs,
      median: sorted[Math.floor(sorted.length / 2)]!,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The rows for the "Start-up and memory" table of docs/benchmarks.md. */
export function binaryRows(b: BinaryResult): string[] {
  return [
    `| Single executable (\`npm run build:binary\`, ${b.buildSeconds.toFixed(1)} s to build): binary size | ${b.sizeMB.toFixed(1)} MB |`,
    `| Single executable: binary start-up, exec to the first answer of GET /api/v1/me with the demonstration key, on the data folder its first start made (median of ${b.runs.length}) | ${b.median.toFixed(0)} ms (${b.runs.map((ms) => ms.toFixed(0)).join(', ')}) |`,
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const result = await measureBinary({ root: resolve(import.meta.dirname, '..'), port, runs: 3 });
  process.stdout.write(`${binaryRows(result).join('\n')}\n`);
}
