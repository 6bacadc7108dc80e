// The public SponsorLevel resource: a package an organiser sells to sponsors (Gold, Silver, ...),
// its rank among the others and what it includes.
import * as v from 'valibot';
import type { SponsorLevelRow } from '../../db/schema';
import { text, uuid } from '../platform/schemas';

const includes = (description: string) => v.pipe(v.boolean(), v.description(description));
const count = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));

export const sponsorLevelSchema = v.object({
  levelId: uuid('The level id.'),
  eventId: uuid('The event id.'),
  name: text("The level's name, in the organiser's words (Gold, Community partner, ...)."),
  rank: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.description('Place among the levels, highest first (from 1 up; a sponsor without a level ranks 0).'),
  ),
  colour: text('Colour the level is shown in, as #rrggbb.'),
  staffAllowance: count('Staff passes a sponsor of this level gets.'),
  freeTickets: count('Free tickets for its guests.'),
  leadDownload: includes('Whether its sponsors may download their leads.'),
  leadExportUntil: v.nullable(
    v.pipe(v.string(), v.isoDate(), v.description('Last day the leads may be exported (YYYY-MM-DD).')),
  ),
  discountCodes: count('Discount codes it may hand out.'),
  discountPercent: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.maxValue(100),
    v.description('Percent those codes take off.'),
  ),
  logoOnPage: includes("Logo on the event's page."),
  logoOnScreens: includes('Logo on the screens at the venue.'),
  logoOnBadges: includes('Logo on the badges.'),
  sponsoredSession: includes('A session of its own in the programme.'),
});

export type SponsorLevelView = v.InferOutput<typeof sponsorLevelSchema>;

export function sponsorLevelView(row: SponsorLevelRow): SponsorLevelView {
  return {
    levelId: row.id,
    eventId: row.event_id,
    name: row.name,
    rank: row.rank,
    colour: row.colour,
    staffAllowance: row.staff_allowance,
    freeTickets: row.free_tickets,
    leadDownload: row.lead_download === 1,
    leadExportUntil: row.lead_export_until,
    discountCodes: row.discount_codes,
    discountPercent: row.discount_percent,
    logoOnPage: row.logo_on_page === 1,
    logoOnScreens: row.logo_on_screens === 1,
    logoOnBadges: row.logo_on_badges === 1,
    sponsoredSession: row.sponsored_session === 1,
  };
}
