import * as v from 'valibot';
import { newId } from '../../platform/ids';
import { defineOperation } from '../../platform/pipeline/operation';
import { problem } from '../../platform/problems';
import { text } from '../../platform/schemas';
import { madeNow } from '../../platform/storage/change-stamp';
import { warningsField, withWarnings } from '../../platform/warnings';
import { lookAhead } from '../receiver-address';
import { encryptSecret, newSigningSecret, secretKeyOf } from '../signing-secrets';
import { checkAddress, checkDescription, checkEventTypes, webhookFields } from './webhook-input';
import { maxEndpoints, webhookSchema, webhookView } from './webhook-view';

export const createWebhook = defineOperation({
  name: 'createWebhook',
  title: 'Add a webhook endpoint',
  description:
    'Adds an endpoint receiving signed messages of the given event types; returns its secret, shown once. For Zapier, Make, n8n use create_hook. Needs webhooks:write.',
  scope: 'webhooks:write',
  effect: 'write',
  activity: {
    resourceType: 'webhook',
    resourceId: (_input, made) => made.webhook.webhookId,
    summary: (_input, made) => made.webhook.host,
  },
  problems: [
    'webhookUrl',
    'webhookHttps',
    'webhookPrivate',
    'eventType',
    'tooManyEndpoints',
    'webhooksUnavailable',
  ],
  input: v.object({
    url: webhookFields.url,
    description: v.optional(webhookFields.description),
    eventTypes: webhookFields.eventTypes,
    active: v.optional(webhookFields.active),
  }),
  output: v.object({
    webhook: webhookSchema,
    secret: text('The signing secret (whsec_ and Base64): shown this once only.'),
    warnings: warningsField,
  }),
  before: (_ctx, input) => lookAhead(input.url),
  async handler(ctx, input) {
    const key = secretKeyOf(ctx.services);
    const warnings = await checkAddress(ctx, input.url);
    const types = checkEventTypes(ctx, input.eventTypes);
    const { n } = await ctx.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', ctx.actor.workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= maxEndpoints)
      throw problem(
        'tooManyEndpoints',
        `A workspace may have at most ${maxEndpoints} webhook endpoints; remove one first.`,
      );
    checkDescription(input.description);

    const secret = newSigningSecret();
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      url: input.url,
      description: input.description ?? null,
      event_types: JSON.stringify(types),
      active: input.active === false ? (0 as const) : (1 as const),
      disabled_reason: null,
      secret_enc: encryptSecret(key, secret),
      previous_secret_enc: null,
      previous_secret_until_utc: null,
      api_key_id: ctx.actor.keyId || null,
      created_by: ctx.actor.keyName,
      last_status: null,
      last_delivery_utc: null,
      ...(await madeNow(ctx)),
    };
    await ctx.db.insertInto('webhooks').values(row).execute();
    return withWarnings({ webhook: webhookView(row), secret }, warnings);
  },
});
