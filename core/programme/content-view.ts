// The public Content resource: slides, a recording, an article or photos published for a session or
// the whole event, with its link. What content.published carries (contentSchema) plus, in the API,
// the event and the last change. Unpublishing removes it: the list is what is published now.
import * as v from 'valibot';
import type { ContentRow } from '../../db/schema';
import { contentKinds } from '../../db/values';
import type { Ctx } from '../platform/context';
import { FieldErrors } from '../platform/field-errors';
import { loadEventRow } from '../platform/pipeline/load-event-row';
import { dateTime, oneLine, text, uuid } from '../platform/schemas';

export const contentSchema = v.object({
  contentId: uuid('The content id.'),
  kind: v.picklist(contentKinds),
  title: text('Its title.'),
  sessionId: v.nullable(uuid('The session it belongs to.')),
  url: v.pipe(v.string(), v.url(), v.description('Where it is published.')),
  publishedUtc: dateTime('When it was published.'),
});

/** Published content as content.published carries it. */
export function contentView(row: ContentRow): v.InferOutput<typeof contentSchema> {
  return {
    contentId: row.id,
    kind: row.kind,
    title: row.title,
    sessionId: row.session_id,
    url: row.url,
    publishedUtc: row.published_utc,
  };
}

export const contentApiSchema = v.object({
  ...contentSchema.entries,
  eventId: uuid('The event id.'),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
});

export type ContentApiView = v.InferOutput<typeof contentApiSchema>;

export function contentApiView(row: ContentRow): ContentApiView {
  return { ...contentView(row), eventId: row.event_id, updatedUtc: row.updated_utc };
}

export const contentFields = {
  kind: v.pipe(v.picklist(contentKinds), v.description('slides, recording, article or photos.')),
  title: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(300),
    v.description('Its title, as people see it.'),
  ),
  url: v.pipe(
    v.string(),
    oneLine,
    v.maxLength(2000),
    v.url('An absolute http or https address.'),
    v.regex(/^https?:\/\//i, 'An absolute http or https address.'),
    v.description('Where it is published (http or https).'),
  ),
  sessionId: v.nullable(uuid('The session it belongs to; null: the whole event.')),
};

/** The session named must be one of the event's: otherwise the field is named (400). */
export async function sessionOfEvent(ctx: Ctx, eventId: string, sessionId: string | null | undefined) {
  if (!sessionId) return;
  const found = await ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!found) {
    const errors = new FieldErrors();
    errors.add('sessionId', 'No session with this id at this event.');
    errors.throwIfAny();
  }
}

export function titleNotBlank(input: Record<string, unknown>, errors: FieldErrors): void {
  if (typeof input.title === 'string' && input.title.trim() === '')
    errors.add('title', 'The title cannot be blank.');
}

/** The event's published content, 404 notFound otherwise. */
export function loadContent(ctx: Ctx, eventId: string, contentId: string) {
  return loadEventRow(ctx, 'published_content', eventId, contentId, 'published content');
}
