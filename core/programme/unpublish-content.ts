import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { uuid } from '../platform/schemas';
import { contentApiView, loadContent } from './content-view';

export const unpublishContent = defineOperation({
  name: 'unpublishContent',
  title: 'Unpublish content',
  description:
    "Unpublishes content: it is removed, from the list and from the event's public page. Publish it again to bring it back. Needs program:write.",
  scope: 'program:write',
  effect: 'destructive',
  repeatable: true,
  extension: true,
  module: 'program',
  activity: { resourceType: 'content', resourceId: (_input, out) => out.contentId },
  problems: ['notFound'],
  ifMatch: {
    hold: heldRow('published_content', (input) => input.contentId),
    async current(ctx, input) {
      return contentApiView(await loadContent(ctx, input.eventId, input.contentId));
    },
  },
  input: v.object({ eventId: uuid('The event id.'), contentId: uuid('The content id.') }),
  output: v.object({ contentId: uuid('The content unpublished.'), deleted: v.literal(true) }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const content = await loadContent(ctx, event.id, input.contentId);
    await ctx.db.deleteFrom('published_content').where('id', '=', content.id).execute();
    return { contentId: content.id, deleted: true as const };
  },
});
