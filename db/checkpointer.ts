// Checkpoints on a thread of their own. In WAL mode every commit appends its pages to the log, and
// by default the commit that crosses 1,000 pages also copies the log back into the database file
// and syncs it: a registration of 50 spent half its commit doing that, on the thread that answers
// requests. The server's connection leaves that work here instead: a connection on a worker thread
// runs a passive checkpoint (it never waits for, nor blocks, the writer or readers) every few
// milliseconds. The writer keeps a far larger checkpoint of its own as a bound, should this thread
// ever fall behind or stop.
import { Worker } from 'node:worker_threads';
import { sqliteDriverFiles } from './sqlite-driver';

/** Where a failing checkpoint thread is reported (the service's log). */
export interface CheckpointLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Pages in the log after which the writer checkpoints itself (about 40 MB). */
export const writerCheckpointPages = 10_000;

const checkpointEveryMs = 50;

// Plain JavaScript evaluated by the worker: it loads nothing of ours, only the driver and its addon
// by path (db/sqlite-driver.ts: the installed ones, or the single executable's copies).
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { nativeBinding: workerData.addon });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error) });
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, log: CheckpointLog): Checkpointer {
  const { driver, addon } = sqliteDriverFiles();
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { driver, addon, file, everyMs: checkpointEveryMs },
    // None of the process's flags: with --input-type=module (or a loader) the script above would
    // be read as an ES module, where require does not exist.
    execArgv: [],
    // A connection and a timer: a small heap is plenty.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  // Unref'd: an open database must not keep a finished process alive.
  worker.unref();
  worker.on('message', (m: { failed?: string }) => {
    if (m.failed)
      log.warn({ error: m.failed }, 'a background checkpoint failed; the writer checkpoints itself');
  });
  worker.on('error', (error) =>
    log.error({ err: error }, 'the checkpoint thread stopped; the writer checkpoints itself'),
  );
  return {
    stop: async () => {
      const exited = new Promise((done) => worker.once('exit', done));
      // Held while it stops: otherwise a process with nothing else to do would end (status 13,
      // an unsettled top-level await) before the exit it waits for.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
