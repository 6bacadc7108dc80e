import * as v from 'valibot';
import { newId } from '../platform/ids';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { madeNow } from '../platform/storage/change-stamp';
import { contentPublished } from './content-messages';
import {
  contentApiSchema,
  contentApiView,
  contentFields,
  sessionOfEvent,
  titleNotBlank,
} from './content-view';

export const publishContent = defineOperation({
  name: 'publishContent',
  title: 'Publish content',
  description:
    "Publishes a session's or the event's slides, recording, article or photos with its link; the event's public page shows it. Sends content.published. Needs program:write.",
  scope: 'program:write',
  effect: 'write',
  idempotent: true,
  extension: true,
  module: 'program',
  etag: true,
  activity: {
    resourceType: 'content',
    resourceId: (_input, content) => content.contentId,
    summary: (_input, content) => content.title,
  },
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    kind: contentFields.kind,
    title: contentFields.title,
    url: contentFields.url,
    sessionId: v.optional(contentFields.sessionId),
  }),
  output: contentApiSchema,
  rules: titleNotBlank,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    await sessionOfEvent(ctx, event.id, input.sessionId);
    const stamp = await madeNow(ctx);
    const row = {
      id: newId(),
      workspace_id: ctx.actor.workspaceId,
      event_id: event.id,
      kind: input.kind,
      title: input.title.trim(),
      session_id: input.sessionId ?? null,
      url: input.url,
      published_utc: stamp.created_utc,
      ...stamp,
    };
    await ctx.db.insertInto('published_content').values(row).execute();
    await contentPublished.emit(ctx, { event, content: row });
    return contentApiView(row);
  },
});
