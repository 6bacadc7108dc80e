// Input fields of a sponsor level, shared by adding and changing one, and the rule tying the lead
// export window to the lead download it limits.
import * as v from 'valibot';
import type { FieldErrors } from '../platform/field-errors';
import { colourMessage, maxWhole, oneLine } from '../platform/schemas';

const count = (description: string) =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(maxWhole), v.description(description));
const includes = (description: string) => v.pipe(v.boolean(), v.description(description));

export const levelFields = {
  name: v.pipe(
    v.string(),
    oneLine,
    v.minLength(1),
    v.maxLength(200),
    v.description("In the organiser's words (Gold, Community partner, ...)."),
  ),
  rank: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.maxValue(maxWhole),
    v.description('Place among the levels, highest first, from 1 up.'),
  ),
  colour: v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, colourMessage), v.description('#rrggbb.')),
  staffAllowance: count('Staff passes a sponsor gets. Default 0.'),
  freeTickets: count('Free tickets for its guests. Default 0.'),
  leadDownload: includes('Its sponsors may download their leads. Default false.'),
  leadExportUntil: v.nullable(
    v.pipe(
      v.string(),
      v.isoDate(),
      v.description('Last day (YYYY-MM-DD, venue time) the leads may be downloaded; null: no end.'),
    ),
  ),
  discountCodes: count('Discount codes it may hand out. Default 0.'),
  discountPercent: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.maxValue(100),
    v.description('Percent those codes take off. Default 0.'),
  ),
  logoOnPage: includes("Logo on the event's page. Default false."),
  logoOnScreens: includes('Logo on the screens at the venue. Default false.'),
  logoOnBadges: includes('Logo on the badges. Default false.'),
  sponsoredSession: includes('A session of its own in the programme. Default false.'),
};

/** A window only limits a download the level allows. */
export function exportWindowNeedsDownload(
  leadDownload: boolean,
  leadExportUntil: string | null,
  errors: FieldErrors,
): void {
  if (leadExportUntil !== null && !leadDownload)
    errors.add('leadExportUntil', 'An export window needs leadDownload true.');
}
