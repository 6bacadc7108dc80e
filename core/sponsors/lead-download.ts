// Whether a sponsor may download its leads today: its level must include the download, and the
// export window (its last day, in the venue's time zone) must not have passed. A sponsor without a
// level has no package, so no download.
import type { EventRow, SponsorLevelRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
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
