// Input fields and rules shared by creating and changing an event.
import * as v from 'valibot';
import { paymentMethodsOffered } from '../../db/values';
import { FieldErrors, textOf } from '../platform/field-errors';
import { isCurrency } from '../platform/money';
import {
  countryMessage,
  dateTime,
  languageTagMessage,
  languageTagPattern,
  localTime,
  oneLine,
} from '../platform/schemas';
import { fromLocal, isTimeZone, parseInstant } from '../platform/time';
import { eventModules } from './event-view';

export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const slugMessage =
  'Must be lowercase letters and digits joined by single hyphens, such as fjord-conf-2026.';

export const eventFields = {
  name: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200)),
  slug: v.pipe(
    v.string(),
    v.regex(slugPattern, slugMessage),
    v.maxLength(80),
    v.description('Page address: lowercase letters, digits and hyphens; made from the name when absent.'),
  ),
  online: v.pipe(v.boolean(), v.description('No venue, no doors. Default false.')),
  venue: v.nullable(
    v.object({
      name: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(200)),
      address: v.optional(v.nullable(v.pipe(v.string(), oneLine, v.maxLength(300)))),
      city: v.optional(v.nullable(v.pipe(v.string(), oneLine, v.maxLength(100)))),
      country: v.optional(
        v.nullable(
          v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, countryMessage), v.description('ISO 3166-1 alpha-2')),
        ),
      ),
    }),
  ),
  timeZone: v.pipe(v.string(), oneLine, v.description('IANA, e.g. Europe/Oslo.')),
  startsLocal: localTime('Start'),
  endsLocal: localTime('End'),
  startsUtc: dateTime('Wins over startsLocal.'),
  endsUtc: dateTime('Wins over endsLocal.'),
  languages: v.pipe(
    v.array(v.pipe(v.string(), v.regex(languageTagPattern, languageTagMessage))),
    v.minLength(1),
    v.maxLength(20),
    v.description('Language tags; the first is the default. Default ["en"].'),
  ),
  currency: v.pipe(v.string(), oneLine, v.description('ISO 4217, e.g. EUR.')),
  paymentMethods: v.pipe(
    v.picklist(paymentMethodsOffered),
    v.description(
      'Tessera extension: transfer, card or both; card needs the workspace connected to Stripe (refused stripeNotConnected).',
    ),
  ),
  modules: v.pipe(
    v.record(v.picklist(eventModules), v.boolean()),
    v.description(`On (true) or off (false); absent ones are on. Keys: ${eventModules.join(', ')}.`),
  ),
};

export interface TimeInput {
  startsLocal?: string;
  endsLocal?: string;
  startsUtc?: string;
  endsUtc?: string;
}

/** The time fields of an input as sent, those that are text. */
export function timeInputOf(input: Record<string, unknown>): TimeInput {
  return {
    startsLocal: textOf(input.startsLocal),
    endsLocal: textOf(input.endsLocal),
    startsUtc: textOf(input.startsUtc),
    endsUtc: textOf(input.endsUtc),
  };
}

/**
 * Resolves the start and end instants from the UTC pair or the local pair (UTC wins when both
 * are sent), in the given zone; absent values fall back to `current`. Reports, in `errors`, a
 * value that is not a real time, an end that is missing where there is nothing to fall back on,
 * and an end not after the start (on the end's field, or the start's when only that moved).
 * Without a zone (it was refused), local times are not read.
 */
export function resolveTimes(
  input: TimeInput,
  zone: string | null,
  current: { starts: string | null; ends: string | null },
  errors: FieldErrors,
): { starts: string | null; ends: string | null } {
  const pick = (
    utc: string | undefined,
    local: string | undefined,
    field: 'starts' | 'ends',
    fallback: string | null,
  ) => {
    if (utc !== undefined) {
      const parsed = parseInstant(utc);
      if (!parsed) errors.add(`${field}Utc`, 'Not an ISO 8601 date-time with a zone.');
      return parsed;
    }
    if (local !== undefined) {
      if (zone === null) return null;
      const parsed = fromLocal(local, zone);
      if (!parsed) errors.add(`${field}Local`, `Not a real local time in ${zone}.`);
      return parsed;
    }
    if (fallback === null) errors.add(`${field}Local`, `Give ${field}Local or ${field}Utc.`);
    return fallback;
  };
  const starts = pick(input.startsUtc, input.startsLocal, 'starts', current.starts);
  const ends = pick(input.endsUtc, input.endsLocal, 'ends', current.ends);
  if (starts && ends && ends <= starts) {
    const endMoved = input.endsUtc !== undefined || input.endsLocal !== undefined;
    errors.add(
      endMoved || current.ends === null ? 'endsUtc' : 'startsUtc',
      'The end must come after the start.',
    );
  }
  return { starts, ends };
}

/** The instants of times already checked by resolveTimes (as a rule): they are there and real. */
export function checkedTimes(
  input: TimeInput,
  zone: string,
  current: { starts: string | null; ends: string | null },
): { starts: string; ends: string } {
  const errors = new FieldErrors();
  const times = resolveTimes(input, zone, current, errors);
  if (errors.list.length > 0 || !times.starts || !times.ends)
    throw new Error('Times were not checked before use.');
  return { starts: times.starts, ends: times.ends };
}

export function checkZoneAndCurrency(
  errors: FieldErrors,
  zone: string | undefined,
  currency: string | undefined,
): void {
  if (zone !== undefined && !isTimeZone(zone)) errors.add('timeZone', `"${zone}" is not an IANA time zone.`);
  if (currency !== undefined && !isCurrency(currency))
    errors.add('currency', `"${currency}" is not an ISO 4217 currency.`);
}

export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 70)
    .replace(/-+$/g, '');
  return slug || 'event';
}
