// A share link as the API shows it: whose it is, the channel, its code and short address. It holds
// nothing personal (the sharer's name is on the leaderboard), and no counts, so its entity tag
// stays the same until it is removed.
import * as v from 'valibot';
import type { EventRow, ShareLinkRow, SharerRow } from '../../db/schema';
import { shareChannels, sharerKinds } from '../../db/values';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { dateTime, text, uuid } from '../platform/schemas';
import { shortAddress } from './share-link-code';

export const shareLinkSchema = v.object({
  linkId: uuid('The link id.'),
  eventId: uuid('The event id.'),
  sharerId: uuid('Who shares it; the leaderboard ranks sharers.'),
  kind: v.pipe(v.picklist(sharerKinds), v.description('attendee, speaker or sponsor.')),
  attendeeId: v.nullable(uuid("The sharer's own ticket, for an attendee.")),
  speakerId: v.nullable(uuid('The speaker, for a speaker.')),
  sponsorId: v.nullable(uuid('The sponsor, for a sponsor.')),
  channel: v.pipe(v.picklist(shareChannels), v.description('Where it is shared.')),
  code: text("The link's ref: a registration sent with it as shareRef counts for the sharer."),
  shortUrl: text(
    "The public address to share: it counts a click and leads to the event's page with the ref.",
  ),
  sharedUtc: dateTime('When it was made.'),
  updatedUtc: dateTime('When it last changed.'),
});

export type ShareLinkView = v.InferOutput<typeof shareLinkSchema>;

export type ShareLinkWithSharer = ShareLinkRow &
  Pick<SharerRow, 'kind' | 'attendee_id' | 'speaker_id' | 'sponsor_id'>;

export function shareLinkView(
  ctx: Pick<Ctx, 'request'>,
  event: Pick<EventRow, 'slug'>,
  row: ShareLinkWithSharer,
): ShareLinkView {
  return {
    linkId: row.id,
    eventId: row.event_id,
    sharerId: row.sharer_id,
    kind: row.kind,
    attendeeId: row.attendee_id,
    speakerId: row.speaker_id,
    sponsorId: row.sponsor_id,
    channel: row.channel,
    code: row.code,
    shortUrl: shortAddress(ctx.request.origin, event.slug, row.code),
    sharedUtc: row.shared_utc,
    updatedUtc: row.updated_utc,
  };
}

/** The event's links with their sharer, removed ones left out. */
export function shareLinksOf(ctx: Ctx, eventId: string) {
  return ctx.db
    .selectFrom('share_links')
    .innerJoin('sharers', 'sharers.id', 'share_links.sharer_id')
    .selectAll('share_links')
    .select(['sharers.kind', 'sharers.attendee_id', 'sharers.speaker_id', 'sharers.sponsor_id'])
    .where('share_links.event_id', '=', eventId)
    .where('share_links.removed_utc', 'is', null);
}

/** A link of the event that is not removed; 404 notFound otherwise. */
export async function loadShareLink(ctx: Ctx, eventId: string, linkId: string): Promise<ShareLinkWithSharer> {
  const row = await shareLinksOf(ctx, eventId).where('share_links.id', '=', linkId).executeTakeFirst();
  if (!row) throw problem('notFound', `No share link ${linkId} at this event.`);
  return row;
}
