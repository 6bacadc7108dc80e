// The import file format (version 1), in one valibot schema: communities with their members,
// events with everything under them in every area, and passes across events. Items carry keys of the file's own choosing and
// refer to one another by them; Tessera derives the ids. Its JSON Schema is published beside the
// OpenAPI document (GET /api/v1/import-schema.json).
import * as v from 'valibot';
import { eventModules, eventStatuses } from '../../db/values';
import { eventFields, slugPattern } from '../events';
import { ownRecord } from '../platform/own-record';
import { oneLine } from '../platform/schemas';
import { key, language, list, name, orFalse, orNull, ref, utc } from './fields';
import { cfpSharekitFormat } from './sections/cfp-sharekit';
import { communityFormat } from './sections/communities';
import { crewFormat } from './sections/crew';
import { financeFormat } from './sections/finance';
import { logisticsFormat } from './sections/logistics';
import { passFormat } from './sections/passes';
import { programmeFormat } from './sections/programme';
import { salesFormat } from './sections/sales-format';
import { sponsorsFormat } from './sections/sponsors';
import { surveysFormat } from './sections/surveys';

export const eventFormat = v.strictObject({
  key: key('event'),
  name: name('Name of the event, 1 to 200 characters.'),
  slug: v.pipe(
    v.string(),
    v.regex(slugPattern),
    v.maxLength(80),
    v.description('Address of the event page (/e/{slug}); unique across the deployment.'),
  ),
  status: v.optional(v.picklist(eventStatuses), 'draft'),
  online: orFalse('An online event (no venue, no doors).'),
  venue: orNull(eventFields.venue.wrapped),
  timeZone: v.pipe(v.string(), oneLine, v.description('IANA time zone of the venue, e.g. Europe/Oslo.')),
  startsUtc: utc('Start'),
  endsUtc: utc('End'),
  languages: v.optional(v.pipe(v.array(language), v.minLength(1), v.maxLength(20)), ['en']),
  currency: v.pipe(v.string(), oneLine, v.description('ISO 4217 currency of its prices, e.g. EUR.')),
  modules: v.optional(
    v.pipe(
      ownRecord(v.picklist(eventModules), v.boolean()),
      v.description(
        `Modules switched on (true) or off (false); absent ones are on. ${eventModules.join(', ')}.`,
      ),
    ),
    {},
  ),
  community: orNull(ref('community whose meetup it is')),
  ...salesFormat,
  ...programmeFormat,
  ...sponsorsFormat,
  ...crewFormat,
  ...surveysFormat,
  ...financeFormat,
  ...cfpSharekitFormat,
  ...logisticsFormat,
});

export const importFormat = v.pipe(
  v.strictObject({
    $schema: v.optional(
      v.pipe(v.string(), oneLine, v.description('The address of this format’s JSON Schema, for editors.')),
    ),
    format: v.pipe(v.literal('tessera-import'), v.description('Always tessera-import.')),
    version: v.pipe(v.literal(1), v.description('The version of the format: 1.')),
    communities: list(communityFormat, 'Communities with their members.', 1000),
    events: list(eventFormat, 'Events with everything under them.', 1000),
    passes: list(passFormat, 'Season passes and bundles, with their holders.', 1000),
  }),
  v.title('Tessera import file'),
  v.description(
    'Events and everything under them, communities and passes, to load with `tessera import --workspace ID FILE.json`. Every item has a key of your choosing, unique among its kind within its event (or community); items refer to each other by these keys, and importing the same file again updates the items with those keys instead of adding others. Times are ISO 8601 with a zone; amounts are in the currency’s own decimals.',
  ),
);

export type ImportFile = v.InferOutput<typeof importFormat>;
export type EventInput = v.InferOutput<typeof eventFormat>;
