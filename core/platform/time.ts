// Venue time: `...Local` fields are YYYY-MM-DDTHH:mm in the event's IANA zone, through Luxon.
import { DateTime, IANAZone } from 'luxon';

export const localPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

export function toLocal(utcIso: string, zone: string): string {
  return DateTime.fromISO(utcIso, { zone: 'utc' }).setZone(zone).toFormat("yyyy-MM-dd'T'HH:mm");
}

export function toLocalOrNull(utcIso: string | null, zone: string): string | null {
  return utcIso === null ? null : toLocal(utcIso, zone);
}

/** A venue-time string to a UTC instant; null when the string is not a real local time. */
export function fromLocal(local: string, zone: string): string | null {
  if (!localPattern.test(local)) return null;
  const dt = DateTime.fromFormat(local, "yyyy-MM-dd'T'HH:mm", { zone });
  return dt.isValid ? dt.toUTC().toISO({ suppressMilliseconds: false }) : null;
}

/** Parses an ISO 8601 moment with a zone or offset; null when it is not one. */
export function parseInstant(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return null;
  const dt = DateTime.fromISO(value, { setZone: true });
  return dt.isValid ? dt.toUTC().toISO() : null;
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function venueDate(utcIso: string, zone: string): string {
  return DateTime.fromISO(utcIso, { zone: 'utc' }).setZone(zone).toISODate() as string;
}

/** When something happens, for people, in the venue's zone: "Sat 1 May 2027, 09:00 – 17:00". */
export function venueTimeRange(startsUtc: string, endsUtc: string, zone: string): string {
  const starts = DateTime.fromISO(startsUtc, { zone: 'utc' }).setZone(zone).setLocale('en-GB');
  const ends = DateTime.fromISO(endsUtc, { zone: 'utc' }).setZone(zone).setLocale('en-GB');
  const day = 'ccc d LLL yyyy';
  return starts.hasSame(ends, 'day')
    ? `${starts.toFormat(`${day}, HH:mm`)} – ${ends.toFormat('HH:mm')}`
    : `${starts.toFormat(`${day}, HH:mm`)} – ${ends.toFormat(`${day}, HH:mm`)}`;
}
