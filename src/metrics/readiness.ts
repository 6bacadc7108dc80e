// /readyz's checks: the database answers a trivial query (within two seconds), no migration of
// this version is pending, and the webhook dispatcher runs and has ticked lately. Cheap enough to
// poll every few seconds: one `select 1`; the migration check reads the database only until it
// has once found nothing pending (migrations run at start, never while the server runs).
import { sql } from 'kysely';
import type { Services } from '../../core/platform/services';
import type { Dispatcher } from '../../core/webhooks';
import { migrationStatus } from '../../db/connect';

/** The dispatcher ticks every second; this long without one, it is taken as wedged. */
export const staleAfterMs = 30_000;
const databasePatienceMs = 2_000;

export interface ReadinessAnswer {
  ready: boolean;
  /** Each check by name: ok, or why not (a word, never data). */
  checks: { database: string; migrations: string; dispatcher: string };
}

export function readiness(
  services: Services,
  /** The server's dispatcher; null when started without one (tests that inspect the outbox). */
  dispatcher: () => Dispatcher | null,
): () => Promise<ReadinessAnswer> {
  let migrationsCurrent = false;
  const database = async (): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('slow'), databasePatienceMs);
    });
    const answered = sql`select 1`
      .execute(services.db)
      .then(() => 'ok')
      .catch(() => 'failed');
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const migrations = async (): Promise<string> => {
    if (migrationsCurrent) return 'ok';
    const status = await migrationStatus(services.db);
    migrationsCurrent = status.pending.length === 0;
    return migrationsCurrent ? 'ok' : 'pending';
  };
  const dispatcherCheck = (): string => {
    const running = dispatcher();
    // Without a dispatcher nothing waits on one here: the server still answers every request.
    if (running === null) return 'off';
    const { running: started, lastTickMs } = running.state;
    if (!started) return 'stopped';
    return lastTickMs !== null && services.clock.now().getTime() - lastTickMs <= staleAfterMs
      ? 'ok'
      : 'stale';
  };
  return async () => {
    const db = await database();
    const checks = {
      database: db,
      migrations: db === 'ok' ? await migrations().catch(() => 'failed') : 'unknown',
      dispatcher: dispatcherCheck(),
    };
    const ready =
      checks.database === 'ok' &&
      checks.migrations === 'ok' &&
      (checks.dispatcher === 'ok' || checks.dispatcher === 'off');
    return { ready, checks };
  };
}
