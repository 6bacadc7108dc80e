// Whether a sponsor may download its leads today: its level must include the download, and the
// export window (its last day, in the venue's time zone) must not have passed. A sponsor without a
// level has no package, so no download.
import type { EventRow, SponsorLevelRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { isProblem, problem } from '../platform/problems';
import { venueDate } from '../platform/time';

type Level = Pick<SponsorLevelRow, 'name' | 'lead_download' | 'lead_export_until'>;

/** Refuses with leadDownloadClosed, saying why, unless the download is open today. */
export function requireLeadDownload(
  ctx: Ctx,
  event: Pick<EventRow, 'time_zone'>,
  sponsorName: string,
  level: Level | null,
): void {
  if (!level)
    throw problem('leadDownloadClosed', `${sponsorName} has no sponsor level, so no lead download.`);
  if (level.lead_download !== 1)
    throw problem('leadDownloadClosed', `The level ${level.name} does not include downloading leads.`);
  const today = venueDate(ctx.clock.now().toISOString(), event.time_zone);
  if (level.lead_export_until !== null && today > level.lead_export_until)
    throw problem(
      'leadDownloadClosed',
      `The level ${level.name} let its sponsors download leads until ${level.lead_export_until}.`,
    );
}

/**
 * The event's sponsors whose lead download is closed today, each with the sentence saying why:
 * an export of every sponsor's leads leaves theirs out.
 */
export async function closedLeadDownloads(
  ctx: Ctx,
  event: Pick<EventRow, 'id' | 'time_zone'>,
): Promise<Map<string, { name: string; reason: string }>> {
  const sponsors = await ctx.db
    .selectFrom('sponsors')
    .leftJoin('sponsor_levels', 'sponsor_levels.id', 'sponsors.level_id')
    .select([
      'sponsors.id as id',
      'sponsors.name as name',
      'sponsor_levels.name as level_name',
      'sponsor_levels.lead_download as lead_download',
      'sponsor_levels.lead_export_until as lead_export_until',
    ])
    .where('sponsors.event_id', '=', event.id)
    .execute();
  const closed = new Map<string, { name: string; reason: string }>();
  for (const s of sponsors) {
    const level =
      s.level_name === null
        ? null
        : { name: s.level_name, lead_download: s.lead_download ?? 0, lead_export_until: s.lead_export_until };
    try {
      requireLeadDownload(ctx, event, s.name, level);
    } catch (error) {
      if (!isProblem(error)) throw error;
      closed.set(s.id, { name: s.name, reason: error.detail });
    }
  }
  return closed;
}
