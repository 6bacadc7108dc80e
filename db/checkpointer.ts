// Checkpoints on a thread of their own. In WAL mode every commit appends its pages to the log, and
// by default the commit that crosses 1,000 pages also copies the log back into the database file
// and syncs it: a registration of 50 spent half its commit doing that, on the thread that answers
// requests. The server's connection leaves that work here instead: a connection on a worker thread
// runs a passive checkpoint (it never waits for, nor blocks, the writer or readers) every few
// milliseconds. The writer keeps a far larger checkpoint of its own as a bound, should this thread
// ever fall behind or stop.
import { sqliteThread } from './sqlite-driver';

/** Where a failing checkpoint thread is reported (the service's log). */
export interface CheckpointLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Pages in the log after which the writer checkpoints itself (about 40 MB). */
export const writerCheckpointPages = 10_000;

const checkpointEveryMs = 50;

// What the thread runs (db/sqlite-driver.ts sqliteThread).
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
  const worker = sqliteThread(workerSource, file, {
    data: { everyMs: checkpointEveryMs },
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
