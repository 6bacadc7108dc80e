// Fields and checks shared by adding and changing an endpoint, in the order the contract gives:
// the address (webhookUrl, webhookHttps, webhookPrivate), the event types (eventType, and the
// key's scopes for them), then the description (at most 200 characters).
import * as v from 'valibot';
import type { WebhookEventType } from '../../../db/values';
import type { Ctx } from '../../platform/context';
import { problem } from '../../platform/problems';
import { oneLine } from '../../platform/schemas';
import type { Warning } from '../../platform/warnings';
import { checkReceiverUrl, maxReceiverUrlLength } from '../receiver-address';
import { eventTypeName, knownEventTypes, requireScopesOf } from '../subscription-rules';

export const maxDescriptionLength = 200;

export const webhookFields = {
  url: v.pipe(
    v.string(),
    oneLine,
    v.description('Public https address.'),
    v.metadata({ format: 'uri', maxLength: maxReceiverUrlLength }),
  ),
  description: v.nullable(
    v.pipe(
      v.string(),
      oneLine,
      v.description('What it is for.'),
      v.metadata({ maxLength: maxDescriptionLength }),
    ),
  ),
  eventTypes: v.pipe(
    v.array(eventTypeName()),
    v.minLength(1),
    v.description('See list_event_types; the key needs the scopes they deliver.'),
  ),
  active: v.pipe(v.boolean(), v.description('Default true; false pauses sending.')),
};

/** The address checked; answers what the answer should warn of (its name not resolving now). */
export async function checkAddress(ctx: Ctx, url: string): Promise<Warning[]> {
  return (await checkReceiverUrl(url, ctx.services.delivery)).warnings;
}

export function checkEventTypes(ctx: Ctx, sent: readonly string[]): WebhookEventType[] {
  const types = knownEventTypes(sent);
  requireScopesOf(ctx.actor, types);
  return types;
}

export function checkDescription(description: string | null | undefined): void {
  if (description && description.length > maxDescriptionLength) {
    throw problem(
      'invalidRequest',
      `The description is ${description.length} characters; at most ${maxDescriptionLength}.`,
      {
        errors: [{ field: 'description', message: `At most ${maxDescriptionLength} characters.` }],
      },
    );
  }
}
