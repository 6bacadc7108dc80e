import * as v from 'valibot';
import { deliveryStates } from '../../../db/values';
import { defineOperation } from '../../platform/pipeline/operation';
import {
  applyPlan,
  cursorFields,
  finishPage,
  pageOf,
  planPage,
  readPage,
} from '../../platform/pipeline/paging';
import { uuid } from '../../platform/schemas';
import { type DeliveryView, deliverySchema } from '../delivery-view';
import { loadWebhook } from './webhook-view';

const { updatedSince: _notHere, ...pageFields } = cursorFields;

export const listWebhookDeliveries = defineOperation({
  name: 'listWebhookDeliveries',
  title: 'List deliveries to an endpoint',
  description:
    'Lists the messages sent to a webhook endpoint, newest first, with each attempt; filter by state. Needs webhooks:read.',
  scope: 'webhooks:read',
  effect: 'read',
  problems: ['notFound'],
  input: v.object({
    webhookId: uuid('The endpoint id.'),
    state: v.optional(
      v.pipe(v.picklist(deliveryStates), v.description('pending, succeeded, failed or cancelled.')),
    ),
    ...pageFields,
  }),
  output: pageOf(deliverySchema),
  async handler(ctx, input) {
    const webhook = await loadWebhook(ctx, input.webhookId);
    const plan = planPage(ctx, input, {
      list: 'webhookDeliveries',
      filters: { webhookId: webhook.id, state: input.state },
      defaultSort: '-created',
    });
    let query = ctx.db
      .selectFrom('deliveries')
      .leftJoin('outbox', 'outbox.id', 'deliveries.outbox_id')
      .selectAll('deliveries')
      .select('outbox.event_id')
      .where('deliveries.target_kind', '=', 'webhook')
      .where('deliveries.target_id', '=', webhook.id);
    if (input.state) query = query.where('deliveries.state', '=', input.state);
    const rows = await readPage(
      ctx.db,
      applyPlan(query, plan, {
        txn: 'deliveries.change_txn',
        seq: 'deliveries.id',
        updated: 'deliveries.updated_utc',
        created: 'deliveries.created_utc',
        id: 'deliveries.id',
      }),
    );
    const ids = rows.map((r) => r.id);
    const attempts =
      ids.length === 0
        ? []
        : await ctx.db
            .selectFrom('delivery_attempts')
            .selectAll()
            .where('delivery_id', 'in', ids)
            .orderBy('attempt')
            .execute();
    return finishPage(
      ctx,
      plan,
      rows,
      (row) => ({
        txn: row.change_txn,
        seq: row.id,
        created: row.created_utc,
        id: row.id as unknown as string,
      }),
      (row): DeliveryView => ({
        deliveryId: row.id,
        messageId: row.message_id,
        type: row.type,
        eventId: row.event_id,
        state: row.state,
        attempts: attempts
          .filter((a) => a.delivery_id === row.id)
          .map((a) => ({
            attempt: a.attempt,
            atUtc: a.started_utc,
            statusCode: a.status_code,
            durationMs: a.duration_ms,
            outcome: a.outcome,
            error: a.error,
            nextAttemptUtc: a.next_attempt_utc,
          })),
        nextAttemptUtc: row.state === 'pending' ? row.next_attempt_utc : null,
        createdUtc: row.created_utc,
        updatedUtc: row.updated_utc,
      }),
    );
  },
});
