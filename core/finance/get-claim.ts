import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { claimNow } from './claim-rows';
import { claimSchema } from './claim-view';

export const getClaim = defineOperation({
  name: 'getClaim',
  title: 'Get an expense claim',
  description:
    'Returns one expense claim with its amount, status and when it was approved and paid. Names and email need people:read. Needs finance:read.',
  scope: 'finance:read',
  effect: 'read',
  extension: true,
  module: 'budget',
  etag: true,
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), claimId: uuid('The expense claim id.') }),
  output: claimSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    return claimNow(ctx, event.id, input.claimId);
  },
});
