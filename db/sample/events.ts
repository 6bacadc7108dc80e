// Sample events: in person and online, in time zones and currencies with 2, 0 and 3 decimals,
// published, draft and past.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';

interface SampleEvent {
  key: string;
  name: string;
  slug: string;
  status: 'draft' | 'published';
  online: boolean;
  venue: { name: string; address: string; city: string; country: string } | null;
  timeZone: string;
  /** Days from the sample's day, and the venue hours. */
  startDay: number;
  days: number;
  startHourUtc: number;
  endHourUtc: number;
  languages: string[];
  currency: string;
  modules: Record<string, boolean>;
}

export const sampleEvents: SampleEvent[] = [
  {
    key: 'summit',
    name: 'Nordic Product Summit 2027',
    slug: 'nordic-product-summit-2027',
    status: 'published',
    online: false,
    venue: { name: 'Oslo Konserthus', address: 'Munkedamsveien 14', city: 'Oslo', country: 'NO' },
    timeZone: 'Europe/Oslo',
    startDay: 45,
    days: 2,
    startHourUtc: 7,
    endHourUtc: 16,
    languages: ['en', 'nb'],
    currency: 'NOK',
    modules: {},
  },
  {
    key: 'meetup',
    name: 'Tokyo Frontend Meetup #42',
    slug: 'tokyo-frontend-meetup-42',
    status: 'published',
    online: false,
    venue: { name: 'Shibuya Stream Hall', address: '3-21-3 Shibuya', city: 'Tokyo', country: 'JP' },
    timeZone: 'Asia/Tokyo',
    startDay: 12,
    days: 1,
    startHourUtc: 9,
    endHourUtc: 13,
    languages: ['ja', 'en'],
    currency: 'JPY',
    modules: { sponsors: false, leads: false, budget: false, cfp: false, sharekit: false },
  },
  {
    key: 'forum',
    name: 'Gulf Data Forum',
    slug: 'gulf-data-forum',
    status: 'draft',
    online: false,
    venue: {
      name: 'Arraya Ballroom',
      address: 'Sharq, Al-Shuhada Street',
      city: 'Kuwait City',
      country: 'KW',
    },
    timeZone: 'Asia/Kuwait',
    startDay: 90,
    days: 1,
    startHourUtc: 5,
    endHourUtc: 14,
    languages: ['en', 'ar'],
    currency: 'KWD',
    modules: { crew: false },
  },
  {
    key: 'remote',
    name: 'Remote Ops Day',
    slug: 'remote-ops-day',
    status: 'published',
    online: true,
    venue: null,
    timeZone: 'UTC',
    startDay: 20,
    days: 1,
    startHourUtc: 13,
    endHourUtc: 19,
    languages: ['en'],
    currency: 'EUR',
    modules: { checkin: false },
  },
  {
    key: 'past',
    name: 'Lisbon Design Week 2026',
    slug: 'lisbon-design-week-2026',
    status: 'published',
    online: false,
    venue: { name: 'LX Factory', address: 'Rua Rodrigues de Faria 103', city: 'Lisbon', country: 'PT' },
    timeZone: 'Europe/Lisbon',
    startDay: -30,
    days: 3,
    startHourUtc: 9,
    endHourUtc: 18,
    languages: ['en', 'pt'],
    currency: 'EUR',
    modules: {},
  },
];

function atDay(day0: Date, days: number, hourUtc: number): string {
  return new Date(day0.getTime() + days * 86_400_000 + hourUtc * 3_600_000).toISOString();
}

export async function insertSampleEvents(db: Db, sample: SampleContext): Promise<void> {
  for (const e of sampleEvents) {
    const created = atDay(sample.day0, -60, 8);
    await db
      .insertInto('events')
      .values({
        id: sample.id(`event/${e.key}`),
        workspace_id: sample.workspaceId,
        name: e.name,
        slug: `${e.slug}${sample.slugSuffix}`,
        status: e.status,
        online: e.online ? 1 : 0,
        venue_name: e.venue?.name ?? null,
        venue_address: e.venue?.address ?? null,
        venue_city: e.venue?.city ?? null,
        venue_country: e.venue?.country ?? null,
        time_zone: e.timeZone,
        starts_utc: atDay(sample.day0, e.startDay, e.startHourUtc),
        ends_utc: atDay(sample.day0, e.startDay + e.days - 1, e.endHourUtc),
        languages: JSON.stringify(e.languages),
        currency: e.currency,
        modules: JSON.stringify(e.modules),
        created_utc: created,
        updated_utc: created,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
  }
}
