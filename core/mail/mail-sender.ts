// The mail sender: sends the queued e-mail through the SMTP transport, with the guarantees of the
// webhook dispatcher and its shared pieces. A message is claimed (until a lease runs out, named by
// this process's instance, db/liveness.ts) in the transaction that picks it, on PostgreSQL locking
// what it picks and skipping what another process holds, so two processes never send one message.
// The result is written after the SMTP conversation: a crash in between sends it again, with the
// same Message-ID. A 4xx answer or a failed connection is tried again on the webhooks' retry
// schedule (retry-schedule.ts); a 5xx refusal of the recipient fails it at once; the schedule's
// last attempt gives up. Claims of a process that ended (kill -9) are let go at start and every
// few seconds; a claim whose lease ran out is taken again in any case.
import { claiming } from '../../db/dialect';
import type { MailMessageRow } from '../../db/schema';
import { nextChangeSeq } from '../../db/sequence';
import { nextAttemptAt } from '../platform/retry-schedule';
import type { Services } from '../platform/services';
import { oneLineOf } from '../platform/shown-text';
import { ClaimHolder } from '../platform/storage/claim-holder';
import { WorkLoop } from '../platform/work-loop';
import { isValidTicket } from '../sales';
import { mailRefusal } from './mail-policy';
import type { MailSendResult, MailTransport } from './mail-transport';
import type { MailAttachment } from './queue-mail';

export interface MailSenderOptions {
  /** Messages claimed in one go (and sent at once, over the transport's pooled connections). */
  batch: number;
  /** How long a claim holds: longer than one SMTP conversation may take. */
  leaseMs: number;
}

export const defaultMailSenderOptions: MailSenderOptions = { batch: 8, leaseMs: 120_000 };

export class MailSender {
  private readonly claims: ClaimHolder;
  private readonly loop: WorkLoop;

  constructor(
    private readonly services: Services,
    private readonly transport: MailTransport,
    private readonly options: MailSenderOptions = defaultMailSenderOptions,
  ) {
    this.claims = new ClaimHolder(services.db, services.log, 'mail senders', () =>
      this.releaseOrphanedClaims(),
    );
    this.loop = new WorkLoop(
      () => this.round(),
      (err) => this.services.log.error({ err }, 'the mail sender failed'),
    );
  }

  async start(): Promise<void> {
    await this.claims.start();
  }

  /** Messages being sent by a process that no longer runs go back to the queue, due at once. */
  private releaseOrphanedClaims(): Promise<unknown> {
    return this.services.writes.run((trx) =>
      trx
        .updateTable('mail_messages')
        .set({ state: 'queued', claimed_until_utc: null, claimed_by: null })
        .where('state', '=', 'sending')
        .where(this.claims.ownedByEndedProcess(trx))
        .execute(),
    );
  }

  /** Called every second (and when a message is queued): works until nothing is due. */
  tick(): void {
    if (this.loop.isStopped) return;
    this.claims.tick();
    this.loop.announce();
  }

  /** Waits until nothing is due now and nothing is being sent (tests). */
  drained(): Promise<void> {
    return this.loop.drained();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.transport.close();
    await this.claims.release();
  }

  /** Sends what is due; goes round again while there was some. */
  private async round(): Promise<boolean> {
    const claimed = await this.claimDue();
    await Promise.all(claimed.map((id) => this.sendOne(id)));
    return claimed.length > 0;
  }

  /** Claims what is due: queued messages, and messages whose sender's claim ran out. */
  private claimDue(): Promise<string[]> {
    const now = this.services.clock.now();
    const nowIso = now.toISOString();
    const lease = new Date(now.getTime() + this.options.leaseMs).toISOString();
    return this.services.writes.run(async (trx) => {
      const due = await claiming(
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
          .limit(this.options.batch),
      ).execute();
      if (due.length === 0) return [];
      const ids = due.map((d) => d.id);
      await trx
        .updateTable('mail_messages')
        .set({ state: 'sending', claimed_until_utc: lease, claimed_by: this.claims.instanceId })
        .where('id', 'in', ids)
        .execute();
      return ids;
    });
  }

  private async sendOne(id: string): Promise<void> {
    try {
      const row = await this.services.db
        .selectFrom('mail_messages')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (row?.state !== 'sending' || row.claimed_by !== this.claims.instanceId) return;
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
        attachments: JSON.parse(row.attachments ?? '[]') as MailAttachment[],
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
        .where('claimed_by', '=', this.claims.instanceId)
        .execute();
    });
  }
}
