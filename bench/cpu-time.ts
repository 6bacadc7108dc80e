// CPU time of the processes a bench measures, from Linux's /proc: a server process, and a
// PostgreSQL cluster on this machine (its postmaster and every process it started: the servers'
// connections, the WAL writer, the checkpointer). The stores bench divides each by the scans
// served to say what a scan costs each side, and so what more cores would buy (docs/deployment.md).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface ProcessTimes {
  parent: number;
  seconds: number;
}

/** A process's (or with `thread`, one of its threads') parent and CPU seconds (user and system); null once it is gone. */
function timesOf(pid: number, thread?: number): ProcessTimes | null {
  let stat: string;
  try {
    stat = readFileSync(
      thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`,
      'utf8',
    );
  } catch {
    return null;
  }
  // The command name is in parentheses and may hold spaces: the fields after it are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond };
}

/** CPU seconds of one process so far, all its threads. */
export function processCpuSeconds(pid: number): number {
  return timesOf(pid)?.seconds ?? 0;
}

/**
 * CPU seconds so far of a process's main thread: a Node.js server's JavaScript, without the
 * threads beside it (V8's collector helpers, SQLite's checkpoints, libuv's pool).
 */
export function mainThreadCpuSeconds(pid: number): number {
  return timesOf(pid, pid)?.seconds ?? 0;
}

/**
 * A reader of the CPU seconds the cluster serving `database` has used, or null when the cluster
 * is not on this machine (its data folder or postmaster not found here).
 */
export async function clusterCpuReader(database: string): Promise<(() => number) | null> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  let dataDirectory: string;
  try {
    dataDirectory = (
      await client.query<{ setting: string }>("select setting from pg_settings where name = 'data_directory'")
    ).rows[0]!.setting;
  } catch {
    return null;
  } finally {
    await client.end();
  }
  const pidFile = join(dataDirectory, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!timesOf(postmaster)) return null;
  return () => {
    let seconds = timesOf(postmaster)?.seconds ?? 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const times = timesOf(Number(entry));
      if (times?.parent === postmaster) seconds += times.seconds;
    }
    return seconds;
  };
}
