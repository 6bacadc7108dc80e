// One size of the scale row's data: a fresh data folder with a workspace, `tessera import` of a
// generated event (timed, with the import process's peak memory), and a key with every scope.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeEventFile } from '../test/support/import-files';
import { benchSecretKey } from './processes';

export interface ScaleFolder {
  dataDir: string;
  workspaceId: string;
  key: string;
  importSeconds: number;
  /** The import process's peak resident memory (VmHWM), MiB. */
  importPeakMiB: number;
  bytesPerAttendee: number;
}

/** Bytes of every file under `dir`. */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

/** The peak resident memory Linux kept for the process, in kB (0 once it has gone). */
function highWaterKiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Runs the command to its end, reading its high-water mark every 20 ms while it lives. */
function runWatched(args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; peakMiB: number }> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr!.on('data', (chunk) => {
      said += String(chunk);
    });
    let peakKiB = 0;
    // VmHWM only grows, so the last reading before the exit is the peak.
    const poll = setInterval(() => {
      peakKiB = Math.max(peakKiB, highWaterKiB(child.pid!));
    }, 20);
    child.once('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`import exited with ${code}: ${said.slice(-2000)}`));
      else resolvePromise({ seconds: (performance.now() - started) / 1000, peakMiB: peakKiB / 1024 });
    });
  });
}

export async function makeScaleFolder(root: string, attendees: number): Promise<ScaleFolder> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-scale-'));
  const bin = join(root, 'bin', 'tessera.mjs');
  // The server's key too: the secrets made here must be readable at its start.
  const env = { ...process.env, TESSERA_LOG_LEVEL: 'silent', TESSERA_SECRET_KEY: benchSecretKey };
  const run = (args: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, [bin, ...args, '--data', dataDir], {
        env,
        maxBuffer: 64 * 1024 * 1024,
      }).toString(),
    );
  const { workspaceId } = run(['workspace', 'create', '--name', 'Scale bench']) as { workspaceId: string };
  // The file lives beside the folder, so that the bytes on disk are the deployment's alone.
  const fileDir = mkdtempSync(join(tmpdir(), 'tessera-bench-scale-file-'));
  const file = join(fileDir, 'import.json');
  try {
    writeFileSync(file, JSON.stringify(largeEventFile(attendees, 'scale')));
    const imported = await runWatched(
      [bin, 'import', '--workspace', workspaceId, file, '--data', dataDir],
      env,
    );
    const { key } = run([
      'key',
      'create',
      '--workspace',
      workspaceId,
      '--name',
      'Scale bench',
      '--preset',
      'everything',
      '--expires',
      'never',
    ]) as { key: string };
    return {
      dataDir,
      workspaceId,
      key,
      importSeconds: imported.seconds,
      importPeakMiB: imported.peakMiB,
      bytesPerAttendee: folderBytes(dataDir) / attendees,
    };
  } finally {
    rmSync(fileDir, { recursive: true, force: true });
  }
}
