// Sample communities: Tokyo Frontend (in person, members approved by the organiser; its meetup is
// the sample's Tokyo meetup, and its season pass is among the sample passes), Nordic Product Circle
// (online, open to all) and a draft one with no members yet. Members in every status, one who
// erased their data, and one who is also a pass holder (same email), so erasure reaches both.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';
import { exampleEmail } from './random';

interface MemberSpec {
  key: string;
  name: string;
  language: string;
  status: 'active' | 'pending' | 'left';
  /** Days before the sample's day they joined. */
  joinedDaysAgo: number;
  announcements?: boolean;
  reminders?: boolean;
  erased?: boolean;
}

interface CommunitySpec {
  key: string;
  name: string;
  slug: string;
  summary: string | null;
  description: string | null;
  city: string | null;
  online: boolean;
  languages: string[];
  timeZone: string;
  joinPolicy: 'open' | 'approval';
  status: 'draft' | 'published';
  createdDaysAgo: number;
  /** Sample events that are its meetups. */
  meetups: string[];
  members: MemberSpec[];
}

const communities: CommunitySpec[] = [
  {
    key: 'tokyo-frontend',
    name: 'Tokyo Frontend',
    slug: 'tokyo-frontend',
    summary: 'Monthly meetups for people who build for the browser.',
    description:
      '## Tokyo Frontend\n\nTalks and hands-on sessions on the web platform, every month in Shibuya. Talks in Japanese or English.',
    city: 'Tokyo',
    online: false,
    languages: ['ja', 'en'],
    timeZone: 'Asia/Tokyo',
    joinPolicy: 'approval',
    status: 'published',
    createdDaysAgo: 400,
    meetups: ['meetup'],
    members: [
      { key: 'aiko', name: 'Aiko Nakamura', language: 'ja', status: 'active', joinedDaysAgo: 380 },
      {
        key: 'kenji',
        name: 'Kenji Sato',
        language: 'ja',
        status: 'active',
        joinedDaysAgo: 300,
        reminders: false,
      },
      { key: 'emma', name: 'Emma Lindqvist', language: 'en', status: 'active', joinedDaysAgo: 120 },
      {
        key: 'ravi',
        name: 'Ravi Menon',
        language: 'en',
        status: 'active',
        joinedDaysAgo: 60,
        announcements: false,
      },
      { key: 'mei', name: 'Mei Kobayashi', language: 'ja', status: 'pending', joinedDaysAgo: 3 },
      { key: 'tom', name: 'Tom Becker', language: 'en', status: 'pending', joinedDaysAgo: 1 },
      { key: 'sora', name: 'Sora Ito', language: 'ja', status: 'left', joinedDaysAgo: 200 },
      {
        key: 'erased',
        name: 'Former Member',
        language: 'en',
        status: 'active',
        joinedDaysAgo: 90,
        erased: true,
      },
    ],
  },
  {
    key: 'nordic-product',
    name: 'Nordic Product Circle',
    slug: 'nordic-product-circle',
    summary: 'Product managers from the Nordics, online every other week.',
    description: null,
    city: null,
    online: true,
    languages: ['en'],
    timeZone: 'Europe/Oslo',
    joinPolicy: 'open',
    status: 'published',
    createdDaysAgo: 200,
    meetups: [],
    members: [
      { key: 'ingrid', name: 'Ingrid Solberg', language: 'en', status: 'active', joinedDaysAgo: 150 },
      { key: 'lars', name: 'Lars Nilsson', language: 'en', status: 'active', joinedDaysAgo: 40 },
      { key: 'aiko', name: 'Aiko Nakamura', language: 'en', status: 'left', joinedDaysAgo: 100 },
    ],
  },
  {
    key: 'berlin-data',
    name: 'Berlin Data Breakfast',
    slug: 'berlin-data-breakfast',
    summary: null,
    description: null,
    city: 'Berlin',
    online: false,
    languages: ['de', 'en'],
    timeZone: 'Europe/Berlin',
    joinPolicy: 'open',
    status: 'draft',
    createdDaysAgo: 5,
    meetups: [],
    members: [],
  },
];

/** The same address as the sample's pass holders use, so a person can be both. */
const emailOf = (name: string): string => exampleEmail(name.replace(' ', '.'));

const daysBefore = (day0: Date, days: number, hourUtc = 9) =>
  new Date(day0.getTime() - days * 86_400_000 + hourUtc * 3_600_000).toISOString();

export async function insertSampleCommunities(db: Db, sample: SampleContext): Promise<void> {
  for (const c of communities) {
    const id = sample.id(`community/${c.key}`);
    const created = daysBefore(sample.day0, c.createdDaysAgo);
    const newest = Math.min(c.createdDaysAgo, ...c.members.map((m) => m.joinedDaysAgo));
    await db
      .insertInto('communities')
      .values({
        id,
        workspace_id: sample.workspaceId,
        slug: `${c.slug}${sample.slugSuffix}`,
        name: c.name,
        summary: c.summary,
        description: c.description,
        city: c.city,
        online: c.online ? 1 : 0,
        languages: JSON.stringify(c.languages),
        time_zone: c.timeZone,
        join_policy: c.joinPolicy,
        status: c.status,
        created_utc: created,
        updated_utc: daysBefore(sample.day0, newest, 10),
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    for (const m of c.members) {
      const joined = daysBefore(sample.day0, m.joinedDaysAgo);
      const approved =
        c.joinPolicy === 'approval' && m.status !== 'pending'
          ? daysBefore(sample.day0, m.joinedDaysAgo, 12)
          : null;
      const left = m.status === 'left' ? daysBefore(sample.day0, Math.floor(m.joinedDaysAgo / 2)) : null;
      await db
        .insertInto('community_members')
        .values({
          id: sample.id(`member/${c.key}/${m.key}`),
          workspace_id: sample.workspaceId,
          community_id: id,
          name: m.erased ? null : m.name,
          email: m.erased ? null : emailOf(m.name),
          language: m.language,
          status: m.status,
          announcements: m.announcements === false ? 0 : 1,
          reminders: m.reminders === false ? 0 : 1,
          joined_utc: joined,
          approved_utc: approved,
          left_utc: left,
          erased: m.erased ? 1 : 0,
          created_utc: joined,
          updated_utc: left ?? approved ?? joined,
          change_seq: await nextChangeSeq(db),
        })
        .execute();
    }
    for (const event of c.meetups)
      await db
        .updateTable('events')
        .set({ community_id: id })
        .where('id', '=', sample.id(`event/${event}`))
        .execute();
  }
}
