import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { updateEventRow } from '../platform/pipeline/update-row';
import { uuid } from '../platform/schemas';
import { changedNow } from '../platform/storage/change-stamp';
import {
  contentApiSchema,
  contentApiView,
  contentFields,
  loadContent,
  sessionOfEvent,
  titleNotBlank,
} from './content-view';

export const updateContent = defineOperation({
  name: 'updateContent',
  title: 'Change published content',
  description:
    'Changes published content (its kind, title, link or session); send only what changes. It stays published; content.published is not sent again. Needs program:write.',
  scope: 'program:write',
  effect: 'write',
  repeatable: true,
  extension: true,
  module: 'program',
  activity: { resourceType: 'content', resourceId: (_input, content) => content.contentId },
  problems: ['notFound'],
  etag: true,
  ifMatch: {
    hold: heldRow('published_content', (input) => input.contentId),
    async current(ctx, input) {
      return contentApiView(await loadContent(ctx, input.eventId, input.contentId));
    },
  },
  input: v.object({
    eventId: uuid('The event id.'),
    contentId: uuid('The content id.'),
    kind: v.optional(contentFields.kind),
    title: v.optional(contentFields.title),
    url: v.optional(contentFields.url),
    sessionId: v.optional(contentFields.sessionId),
  }),
  output: contentApiSchema,
  rules: titleNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const content = await loadContent(ctx, event.id, input.contentId);
    await sessionOfEvent(ctx, event.id, input.sessionId);
    const next = {
      ...content,
      kind: input.kind ?? content.kind,
      title: input.title?.trim() ?? content.title,
      url: input.url ?? content.url,
      session_id: input.sessionId === undefined ? content.session_id : input.sessionId,
      ...(await changedNow(ctx)),
    };
    await updateEventRow(ctx, 'published_content', content.id, 'published content', next);
    return contentApiView(next);
  },
});
