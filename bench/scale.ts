// npm run bench:scale: one event at 10,000, 100,000 and 400,000 attendees (BENCH_SCALE_SIZES to
// choose), each imported into a fresh data folder with `tessera import`, then served: import time
// and peak memory, first start, search, statistics, the check-in summary, updatedSince, a deep
// cursor page, a door check-in, GET /me beside a slow call, bytes on disk. One size at a time (its
// folder removed after it), so the machine holds one server and one import at most.
import { rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { writeBetweenMarkers } from './processes';
import { callsPerFigure } from './scale-calls';
import { makeScaleFolder } from './scale-folder';
import { measureSize, type SizeFigures } from './scale-size';
import { scaleTable } from './scale-table';

const root = resolve(import.meta.dirname, '..');
const sizes = (process.env.BENCH_SCALE_SIZES ?? '10000,100000,400000').split(',').map(Number);

async function main() {
  if (sizes.some((n) => !Number.isInteger(n) || n < 6000 || n % 2 !== 0)) {
    throw new Error(
      'BENCH_SCALE_SIZES takes even whole numbers of at least 6,000 (the deep pages need 5,200).',
    );
  }
  const figures: SizeFigures[] = [];
  for (const attendees of sizes) {
    process.stdout.write(`Importing ${attendees.toLocaleString('en-US')} attendees…\n`);
    const folder = await makeScaleFolder(root, attendees);
    try {
      process.stdout.write(
        `  ${folder.importSeconds.toFixed(1)} s, peak ${folder.importPeakMiB.toFixed(0)} MiB; serving and measuring…\n`,
      );
      figures.push(await measureSize(folder, attendees, 18_000 + Math.floor(Math.random() * 1000)));
    } finally {
      rmSync(folder.dataDir, { recursive: true, force: true });
    }
  }
  const table = scaleTable(figures);
  process.stdout.write(`\n${table}\n`);
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB memory, Node.js ${process.version}`;
  writeBetweenMarkers(
    join(root, 'docs/benchmarks.md'),
    'scale',
    [
      `Latest run of \`npm run bench:scale\` (${new Date().toISOString().slice(0, 10)}). Machine: ${machine}. One event imported with \`tessera import\` at each size into a fresh data folder, then \`tessera serve\` on it (HTTPS, keep-alive, a key with every scope); each p50/p99 over ${callsPerFigure} calls after a warm-up, or over the calls a ${Number(process.env.BENCH_SCALE_BUDGET_MS ?? 12_000) / 1000} s budget allowed when one call takes long (the count is then shown). GET /me is called every 2 ms on its own warm connection while the slow call runs (3 times and for at least 3 s); the count beside its p99 is how many answers it got in that time. Targets from issue 29 item 1; a ceiling applies at the largest size.`,
      '',
      table,
    ].join('\n'),
    'npm run bench:scale',
  );
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
