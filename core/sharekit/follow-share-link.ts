// A visitor follows a short address, /s/{slug}/{code}: the click is counted (a row of its own, with
// nothing about the visitor, so clicks at the same moment never overwrite each other) and the
// visitor goes on to the event's public page with the link's ref. Only a published event's live
// link answers: an unknown or removed code, or a draft event, is not there (as /e/{slug} is not).
// With the share kit switched off for the event the visitor still reaches the page, but nothing is
// counted and no ref is passed on.
import { modulesOf } from '../platform/pipeline/load-event';
import type { Services } from '../platform/services';
import { shareCodePattern } from './share-link-code';

/** Where to send the visitor (the event page's path and query), or null when the link is not there. */
export async function followShareLink(
  services: Pick<Services, 'db' | 'clock' | 'writes'>,
  slug: string,
  code: string,
): Promise<string | null> {
  if (!shareCodePattern.test(code)) return null;
  const link = await services.db
    .selectFrom('share_links')
    .innerJoin('events', 'events.id', 'share_links.event_id')
    .select([
      'share_links.id',
      'share_links.workspace_id',
      'share_links.code',
      'events.slug',
      'events.modules',
    ])
    .where('events.slug', '=', slug)
    .where('events.status', '=', 'published')
    .where('share_links.code', '=', code)
    .where('share_links.removed_utc', 'is', null)
    .executeTakeFirst();
  if (!link) return null;
  const page = `/e/${encodeURIComponent(link.slug)}`;
  if (!modulesOf(link).sharekit) return page;
  await services.writes.run((trx, moment) =>
    trx
      .insertInto('share_clicks')
      .values({
        workspace_id: link.workspace_id,
        link_id: link.id,
        clicked_utc: moment.now().toISOString(),
      })
      .execute(),
  );
  return `${page}?ref=${encodeURIComponent(link.code)}`;
}
