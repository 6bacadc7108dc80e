// Scheduled housekeeping (node-cron): key activity older than 90 days and expired idempotency
// records are purged nightly; finished rate windows are swept every minute.
import cron from 'node-cron';
import { purgeKeyActivity } from '../core/platform/activity';
import { purgeIdempotencyRecords } from '../core/platform/idempotency';
import type { Services } from '../core/platform/services';
import type { Logger } from './logger';

export function startJobs(services: Services, logger: Logger): { stop(): void } {
  const tasks = [
    cron.schedule('17 3 * * *', async () => {
      try {
        const activity = await purgeKeyActivity(services.db, services.clock);
        const idempotency = await purgeIdempotencyRecords(services.db, services.clock);
        logger.info({ activity, idempotency }, 'purged old records');
      } catch (err) {
        logger.error({ err }, 'purge failed');
      }
    }),
    cron.schedule('* * * * *', () => services.rate.sweep(services.clock.now())),
  ];
  return { stop: () => tasks.forEach((t) => void t.stop()) };
}
