// Scheduled work (node-cron): the webhook dispatcher looks for due deliveries every second (a new
// message also wakes it at once); keys past their expiry lose their subscriptions within a minute;
// key activity older than 90 days, expired idempotency records and delivered messages older than
// 30 days and expired sign-in records (codes, refresh tokens, sessions) are purged nightly, with the
// bodies of e-mail older than the operator's retention period (TESSERA_MAIL_BODY_RETENTION_DAYS);
// finished rate windows are swept every minute. Every 20 seconds, so a place held past its time goes
// back well within a minute: waiting-list offers past their time end (their places offered to the
// next in line), and card payments are reconciled with Stripe (holds that ended released, payments
// whose event was lost recorded). The mail sender, when e-mail is on, looks for due messages every second.
import cron from 'node-cron';
import type { MailSender } from '../core/mail';
import { defaultMailBodyRetentionDays, purgeMailBodies } from '../core/mail';
import { reconcileCardPayments } from '../core/orders';
import { purgeIdempotencyRecords } from '../core/platform/pipeline/idempotency';
import type { Services } from '../core/platform/services';
import { purgeKeyActivity } from '../core/platform/storage/activity';
import { expireWaitingOffers } from '../core/waiting-list';
import { type Dispatcher, endExpiredKeys, purgeDelivered } from '../core/webhooks';
import { purgeExpiredOauthRecords } from '../db/oauth-store';
import type { Logger } from './logger';

/** What the nightly purge keeps, as the operator set it. */
export interface RetentionSettings {
  mailBodyRetentionDays: number;
}

/** The nightly purge, at the services' clock (the schedule runs it at 03:17; tests call it). */
export async function purgeOldRecords(
  services: Services,
  logger: Logger,
  retention: RetentionSettings = { mailBodyRetentionDays: defaultMailBodyRetentionDays },
): Promise<void> {
  try {
    const activity = await purgeKeyActivity(services.db, services.clock);
    const idempotency = await purgeIdempotencyRecords(services.db, services.clock);
    const delivered = await purgeDelivered(services);
    const signIns = await purgeExpiredOauthRecords(services.db, services.clock.now());
    const mailBodies = await purgeMailBodies(services, retention.mailBodyRetentionDays);
    logger.info({ activity, idempotency, delivered, signIns, mailBodies }, 'purged old records');
  } catch (err) {
    logger.error({ err }, 'purge failed');
  }
}

export function startJobs(
  services: Services,
  logger: Logger,
  dispatcher: Dispatcher | null,
  mailSender: MailSender | null = null,
  retention?: RetentionSettings,
): { stop(): void } {
  const tasks = [
    cron.schedule('17 3 * * *', () => purgeOldRecords(services, logger, retention)),
    cron.schedule('* * * * *', async () => {
      try {
        await services.rate.sweep(services.clock.now());
        const ended = await endExpiredKeys(services);
        if (ended > 0)
          logger.info({ keys: ended }, 'expired keys: subscriptions removed, endpoints switched off');
      } catch (err) {
        logger.error({ err }, 'sweeping rate windows or ending expired keys failed');
      }
    }),
    // Places held past their time go back well within a minute of it: every 20 seconds (a run that
    // takes longer, talking to Stripe, is not started twice).
    cron.schedule(
      '*/20 * * * * *',
      async () => {
        try {
          const offers = await expireWaitingOffers(services);
          if (offers > 0)
            logger.info({ offers }, 'waiting-list offers ran out: places offered to the next in line');
        } catch (err) {
          logger.error({ err }, 'ending waiting-list offers failed');
        }
        try {
          const reconciled = await reconcileCardPayments(services);
          if (reconciled.paid + reconciled.expired > 0) logger.info(reconciled, 'card payments reconciled');
        } catch (err) {
          logger.error({ err }, 'reconciling card payments failed');
        }
      },
      { noOverlap: true },
    ),
  ];
  if (dispatcher) {
    const ticks = cron.schedule('* * * * * *', () => dispatcher.tick());
    // A second skipped while the process was busy costs nothing: the next tick (or the next
    // message) finds the same work. Listening keeps node-cron from warning about each one.
    ticks.on('execution:missed', () => {});
    tasks.push(ticks);
  }
  if (mailSender) {
    const ticks = cron.schedule('* * * * * *', () => mailSender.tick());
    ticks.on('execution:missed', () => {});
    tasks.push(ticks);
  }
  return { stop: () => tasks.forEach((t) => void t.stop()) };
}
