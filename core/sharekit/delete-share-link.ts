import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
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
    await ctx.db
      .updateTable('share_links')
      .set({ removed_utc: stamp.updated_utc, ...stamp })
      .where('id', '=', link.id)
      .execute();
    return { linkId: link.id, deleted: true as const };
  },
});
