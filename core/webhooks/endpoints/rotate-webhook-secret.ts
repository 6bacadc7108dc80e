import * as v from 'valibot';
import { defineOperation } from '../../platform/pipeline/operation';
import { updateWorkspaceRow } from '../../platform/pipeline/update-row';
import { dateTime, text, uuid } from '../../platform/schemas';
import { changedNow } from '../../platform/storage/change-stamp';
import { encryptSecret, newSigningSecret, secretKeyOf } from '../signing-secrets';
import { loadWebhook, webhookSchema, webhookView } from './webhook-view';

/** How long the secret being replaced still signs, so receivers can move to the new one. */
export const secretGraceHours = 24;

export const rotateWebhookSecret = defineOperation({
  name: 'rotateWebhookSecret',
  title: 'Make a new signing secret',
  description: `Returns a new signing secret, shown once; the old one also signs for ${secretGraceHours} hours. Needs webhooks:write.`,
  scope: 'webhooks:write',
  effect: 'write',
  activity: { resourceType: 'webhook', resourceId: (_input, rotated) => rotated.webhook.webhookId },
  problems: ['notFound', 'webhooksUnavailable'],
  input: v.object({ webhookId: uuid('The endpoint id.') }),
  output: v.object({
    webhook: webhookSchema,
    secret: text('The new signing secret: shown this once only.'),
    previousSecretExpiresUtc: dateTime('Until when the old secret still signs as well.'),
  }),
  async handler(ctx, input) {
    const key = secretKeyOf(ctx.services);
    const current = await loadWebhook(ctx, input.webhookId);
    const secret = newSigningSecret();
    const until = new Date(ctx.clock.now().getTime() + secretGraceHours * 3_600_000).toISOString();
    const next = {
      ...current,
      secret_enc: encryptSecret(key, secret),
      previous_secret_enc: current.secret_enc,
      previous_secret_until_utc: current.secret_enc ? until : null,
      ...(await changedNow(ctx)),
    };
    await updateWorkspaceRow(ctx, 'webhooks', current.id, 'webhook endpoint', next);
    return { webhook: webhookView(next), secret, previousSecretExpiresUtc: until };
  },
});
