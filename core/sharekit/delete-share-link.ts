import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { missingEventRow } from '../platform/pipeline/load-event-row';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import { loadShareLink, shareLinkView } from './share-link-view';

export const deleteShareLink = defineOperation({
  name: 'deleteShareLink',
  title: 'Remove a share link',
  description:
    'Removes a share link: its short address stops answering and its code no longer counts a registration; what it brought stays on the leaderboard. Needs sharekit:write.',
  scope: 'sharekit:write',
  effect: 'destructive',
  extension: true,
  repeatable: true,
  module: 'sharekit',
  activity: { resourceType: 'shareLink', resourceId: (_input, deleted) => deleted.linkId },
  ifMatch: {
    hold: heldRow('share_links', (input) => input.linkId),
    async current(ctx, input) {
      const event = await loadEvent(ctx, input.eventId);
      return shareLinkView(ctx, event, await loadShareLink(ctx, event.id, input.linkId));
    },
  },
  problems: ['notFound'],
  input: v.object({ eventId: uuid('The event id.'), linkId: uuid('The share link id.') }),
  output: v.object({ linkId: uuid('The share link removed.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const link = await loadShareLink(ctx, input.eventId, input.linkId);
    const stamp = await changedNow(ctx);
    // Only a link still there: one removed by another call meanwhile answers notFound, as after it.
    const removed = await updateEventRow(
      ctx,
      'share_links',
      link.id,
      'share link',
      { removed_utc: stamp.updated_utc, ...stamp },
      { onlyIf: (update) => update.where('removed_utc', 'is', null) },
    );
    if (!removed) throw missingEventRow('share link', link.id);
    return { linkId: link.id, deleted: true as const };
  },
});
