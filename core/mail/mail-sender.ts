// The mail sender: sends the queued e-mail through the SMTP transport, by the claiming worker it
// shares with the webhook dispatcher (platform/claiming-worker.ts). A message is claimed (until a lease runs out, named by
// this process's instance, db/liveness.ts) in the transaction that picks it, on PostgreSQL locking
// what it picks and skipping what another process holds, so two processes never send one message.
// The result is written after the SMTP conversation: a crash in between sends it again, with the
// same Message-ID. A 4xx answer or a failed connection is tried again on the webhooks' retry
// schedule (retry-schedule.ts); a 5xx refusal of the recipient fails it at once; the schedule's
// last attempt gives up. Claims of a process that ended (kill -9) are let go at start and every
// few seconds; a claim whose lease ran out is taken again in any case.
import type { Db } from '../../db/connect';
import { claiming } from '../../db/dialect';
import type { MailMessageRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import { ClaimingWorker } from '../platform/claiming-worker';
import { nextAttemptAt } from '../platform/retry-schedule';
import type { Services } from '../platform/services';
import { oneLineOf } from '../platform/shown-text';
import { isValidTicket } from '../sales';
import { attachmentsToSend } from './mail-attachments';
import { mailRefusal } from './mail-policy';
import type { MailSendResult, MailTransport } from './mail-transport';

export interface MailSenderOptions {
  /** Messages being sent at once (over the transport's pooled connections): claimed as places free up. */
  batch: number;
  /** How long a claim holds: longer than one SMTP conversation may take. */
  leaseMs: number;
}

export const defaultMailSenderOptions: MailSenderOptions = { batch: 8, leaseMs: 120_000 };

export class MailSender {
  private readonly worker: ClaimingWorker<{ id: string }>;

  constructor(
    private readonly services: Services,
    private readonly transport: MailTransport,
    private readonly options: MailSenderOptions = defaultMailSenderOptions,
  ) {
    this.worker = new ClaimingWorker(services, {
      claimers: 'mail senders',
      failure: 'the mail sender failed',
      table: 'mail_messages',
      claimedState: { state: 'sending' },
      maxInFlight: options.batch,
      leaseMs: () => this.options.leaseMs,
      // Messages being sent by a process that no longer runs go back to the queue, due at once.
      releaseOrphans: (trx, ended) =>
        trx
          .updateTable('mail_messages')
          .set({ state: 'queued', claimed_until_utc: null, claimed_by: null })
          .where('state', '=', 'sending')
          .where(ended)
          .execute(),
      pickDue: (trx, room, nowIso) => this.due(trx, room, nowIso),
      jobs: async (claimed) => claimed.map(({ id }) => ({ id, run: () => this.sendOne(id) })),
    });
  }

  async start(): Promise<void> {
    await this.worker.start();
  }

  /** Called every second (and when a message is queued): works until nothing is due. */
  tick(): void {
    this.worker.tick();
  }

  /** Waits until nothing is due now and nothing is being sent (tests). */
  drained(): Promise<void> {
    return this.worker.drained();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
    this.transport.close();
  }

  /** What is due: queued messages, and messages whose sender's claim ran out. */
  private due(trx: Db, room: number, nowIso: string): Promise<{ id: string }[]> {
    return claiming(
      trx,
      trx
        .selectFrom('mail_messages')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'queued'), eb('next_attempt_utc', '<=', nowIso)]),
            eb.and([eb('state', '=', 'sending'), eb('claimed_until_utc', '<', nowIso)]),
          ]),
        )
        .orderBy('next_attempt_utc')
        .limit(room),
    ).execute();
  }

  private async sendOne(id: string): Promise<void> {
    try {
      const row = await this.services.db
        .selectFrom('mail_messages')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (row?.state !== 'sending' || row.claimed_by !== this.worker.instanceId) return;
      const why = await this.whyNot(row);
      if (why) {
        await this.finish(row, { state: 'cancelled', last_error: why });
        this.services.metrics?.mail('cancelled');
        return;
      }
      const event = await this.services.db
        .selectFrom('events')
        .select('name')
        .where('id', '=', row.event_id)
        .executeTakeFirstOrThrow();
      const result = await this.transport.send({
        // Header texts one line each, whatever an older row holds (issue 50).
        from: { name: oneLineOf(event.name), address: this.services.mail!.from },
        to: row.recipient!,
        subject: oneLineOf(row.subject),
        text: row.text_body ?? '',
        html: row.html_body ?? '',
        messageId: row.message_id,
        attachments: await attachmentsToSend(this.services.db, row.attachments),
      });
      // The server's answer often quotes the address: the log keeps it without (not personal data then).
      if (result.outcome !== 'sent')
        result.error = result.error.split(row.recipient!).join('(the recipient)');
      await this.record(row, result);
    } catch (err) {
      this.services.log.error({ err, mailId: id }, 'sending an e-mail failed unexpectedly');
    }
  }

  /** Why the message must not go out now, though it was queued: asked again just before sending. */
  private async whyNot(row: MailMessageRow): Promise<string | null> {
    if (row.erased === 1 || row.recipient === null) return 'The person erased their data.';
    const refusal = await mailRefusal(this.services.db, this.services.mail, {
      id: row.event_id,
      workspace_id: row.workspace_id,
    });
    if (refusal) return refusal;
    if ((row.cause_kind === 'ticketIssued' || row.cause_kind === 'ticketResent') && row.attendee_id) {
      const ticket = await this.services.db
        .selectFrom('attendees')
        .innerJoin('orders', 'orders.id', 'attendees.order_id')
        .select(['attendees.status', 'orders.status as order_status'])
        .where('attendees.id', '=', row.attendee_id)
        .executeTakeFirst();
      if (!ticket || !isValidTicket(ticket.status, ticket.order_status))
        return 'The ticket is no longer valid.';
    }
    return null;
  }

  /** Writes what the attempt came to: sent, tried again later, or given up. */
  private async record(row: MailMessageRow, result: MailSendResult): Promise<void> {
    const attempts = row.attempts + 1;
    if (result.outcome === 'sent') {
      await this.finish(row, {
        state: 'sent',
        attempts,
        sent_utc: this.services.clock.now().toISOString(),
        last_error: null,
      });
      this.services.metrics?.mail('sent');
      return;
    }
    const next = result.outcome === 'retry' ? nextAttemptAt(attempts, this.services.clock.now(), null) : null;
    await this.finish(row, {
      state: next ? 'queued' : 'failed',
      attempts,
      next_attempt_utc: next?.toISOString() ?? null,
      last_error: result.error,
    });
    this.services.metrics?.mail(next ? 'retrying' : 'failed');
  }

  private finish(
    row: MailMessageRow,
    change: Partial<
      Pick<MailMessageRow, 'state' | 'attempts' | 'sent_utc' | 'last_error' | 'next_attempt_utc'>
    >,
  ): Promise<void> {
    return this.services.writes.run(async (trx, moment) => {
      await trx
        .updateTable('mail_messages')
        .set({
          next_attempt_utc: null,
          ...change,
          claimed_until_utc: null,
          claimed_by: null,
          updated_utc: moment.now().toISOString(),
          change_seq: await nextChangeSeq(trx),
        })
        .where('id', '=', row.id)
        .where('state', '=', 'sending')
        .where('claimed_by', '=', this.worker.instanceId)
        .execute();
    });
  }
}
