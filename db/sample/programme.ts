// Sample programme: a full two-day programme at the summit (rooms, three tracks, speakers,
// keynotes, talks, workshops, a panel, breaks and meals; one session with fewer seats than its
// room; sessions in a room never clash), a small one at the meetup, and online sessions with a
// streaming service at the remote event (no rooms; the join links are kept but never shown).
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';

interface RoomSpec {
  key: string;
  name: string;
  capacity: number | null;
  location: string | null;
}

interface TrackSpec {
  key: string;
  name: string;
  colour: string;
  description: string | null;
}

interface SpeakerSpec {
  key: string;
  name: string;
  company: string | null;
  jobTitle: string | null;
  bio: string;
}

interface SessionSpec {
  key: string;
  title: string;
  kind: 'talk' | 'keynote' | 'workshop' | 'panel' | 'break' | 'meal' | 'networking' | 'other';
  /** Day of the event from 0, and UTC times HH:mm. */
  day: number;
  starts: string;
  ends: string;
  room?: string;
  track?: string;
  speakers?: string[];
  capacity?: number;
  language?: string;
  summary?: string;
  join?: { provider: string; url: string };
}

interface EventProgramme {
  event: string;
  /** Days from the sample's day to the event's first day. */
  startDay: number;
  rooms: RoomSpec[];
  tracks: TrackSpec[];
  speakers: SpeakerSpec[];
  sessions: SessionSpec[];
}

const programmes: EventProgramme[] = [
  {
    event: 'summit',
    startDay: 45,
    rooms: [
      { key: 'main', name: 'Main hall', capacity: 600, location: 'Ground floor' },
      { key: 'studio', name: 'Studio', capacity: 120, location: 'Level 1, east wing' },
      { key: 'workshop', name: 'Workshop room', capacity: 30, location: 'Level 2' },
    ],
    tracks: [
      {
        key: 'strategy',
        name: 'Product strategy',
        colour: '#1f6feb',
        description: 'Vision, roadmaps and the bets behind them.',
      },
      {
        key: 'design',
        name: 'Design and research',
        colour: '#d6336c',
        description: 'Discovery, research and interface design.',
      },
      {
        key: 'engineering',
        name: 'Engineering for product',
        colour: '#2f9e44',
        description: 'Building, measuring and shipping.',
      },
    ],
    speakers: [
      {
        key: 'ingrid',
        name: 'Ingrid Solberg',
        company: 'Fjord Labs',
        jobTitle: 'Chief Product Officer',
        bio: 'Ingrid has led product at three Nordic scale-ups.',
      },
      {
        key: 'kenji',
        name: 'Kenji Watanabe',
        company: 'Sakura Systems',
        jobTitle: 'Head of Product',
        bio: 'Kenji builds developer tools used across Asia.',
      },
      {
        key: 'amara',
        name: 'Amara Okafor',
        company: 'Lumen Studio',
        jobTitle: 'Design Director',
        bio: 'Amara runs discovery programmes for public services.',
      },
      {
        key: 'mateus',
        name: 'Mateus Silva',
        company: 'Atlântico Design',
        jobTitle: 'Staff Engineer',
        bio: 'Mateus writes about shipping small and often.',
      },
      {
        key: 'fatima',
        name: 'Fatima Al-Sabah',
        company: 'Desert Bloom Analytics',
        jobTitle: 'Data Scientist',
        bio: 'Fatima measures what product teams guess.',
      },
      {
        key: 'lars',
        name: 'Lars Johansen',
        company: 'Northwind AS',
        jobTitle: 'CTO',
        bio: 'Lars has been building software in Oslo for twenty years.',
      },
      {
        key: 'chloe',
        name: 'Chloé Dubois',
        company: null,
        jobTitle: 'Independent researcher',
        bio: 'Chloé studies how teams make decisions.',
      },
      {
        key: 'priya',
        name: 'Priya Rahman',
        company: 'Polar Data',
        jobTitle: 'Engineering Manager',
        bio: 'Priya leads platform teams and mentors new managers.',
      },
    ],
    sessions: [
      {
        key: 'doors',
        title: 'Registration and coffee',
        kind: 'break',
        day: 0,
        starts: '07:00',
        ends: '07:30',
      },
      {
        key: 'opening',
        title: 'Opening keynote: products people keep',
        kind: 'keynote',
        day: 0,
        starts: '07:30',
        ends: '08:15',
        room: 'main',
        track: 'strategy',
        speakers: ['ingrid'],
        language: 'en',
        summary: 'Why some products become **habits**, and what that asks of the teams behind them.',
      },
      {
        key: 'roadmaps',
        title: 'Roadmaps without dates',
        kind: 'talk',
        day: 0,
        starts: '08:30',
        ends: '09:15',
        room: 'main',
        track: 'strategy',
        speakers: ['kenji'],
        language: 'en',
      },
      {
        key: 'discovery',
        title: 'Workshop: product discovery',
        kind: 'workshop',
        day: 0,
        starts: '08:30',
        ends: '10:30',
        room: 'workshop',
        track: 'design',
        speakers: ['amara'],
        capacity: 24,
        language: 'en',
        summary: 'Hands-on: interview plans, assumption maps and a first experiment. Bring a laptop.',
      },
      { key: 'coffee1', title: 'Coffee break', kind: 'break', day: 0, starts: '09:15', ends: '09:30' },
      {
        key: 'metrics',
        title: 'Metrics that matter',
        kind: 'talk',
        day: 0,
        starts: '09:30',
        ends: '10:15',
        room: 'main',
        track: 'engineering',
        speakers: ['fatima'],
        language: 'en',
      },
      {
        key: 'shipping',
        title: 'Shipping small, shipping often',
        kind: 'talk',
        day: 0,
        starts: '09:30',
        ends: '10:15',
        room: 'studio',
        track: 'engineering',
        speakers: ['mateus'],
        language: 'en',
      },
      { key: 'lunch1', title: 'Lunch', kind: 'meal', day: 0, starts: '10:30', ends: '11:30' },
      {
        key: 'panel',
        title: 'Panel: the future of product teams',
        kind: 'panel',
        day: 0,
        starts: '11:30',
        ends: '12:30',
        room: 'main',
        track: 'strategy',
        speakers: ['kenji', 'lars', 'chloe'],
        language: 'en',
      },
      {
        key: 'managers',
        title: 'From engineer to manager',
        kind: 'talk',
        day: 0,
        starts: '12:45',
        ends: '13:30',
        room: 'studio',
        track: 'engineering',
        speakers: ['priya'],
        language: 'en',
      },
      {
        key: 'mingle',
        title: 'Drinks and demos',
        kind: 'networking',
        day: 0,
        starts: '14:00',
        ends: '16:00',
        room: 'main',
      },
      {
        key: 'day2keynote',
        title: 'Keynote: building for the long run',
        kind: 'keynote',
        day: 1,
        starts: '07:30',
        ends: '08:15',
        room: 'main',
        track: 'engineering',
        speakers: ['lars'],
        language: 'en',
      },
      {
        key: 'research',
        title: 'Forskning som forandrer produkter',
        kind: 'talk',
        day: 1,
        starts: '08:30',
        ends: '09:15',
        room: 'studio',
        track: 'design',
        speakers: ['chloe'],
        language: 'nb',
      },
      {
        key: 'experiments',
        title: 'Workshop: running experiments',
        kind: 'workshop',
        day: 1,
        starts: '08:30',
        ends: '10:00',
        room: 'workshop',
        track: 'engineering',
        speakers: ['mateus', 'fatima'],
        language: 'en',
      },
      {
        key: 'pricing',
        title: 'Pricing as a product decision',
        kind: 'talk',
        day: 1,
        starts: '09:30',
        ends: '10:15',
        room: 'main',
        track: 'strategy',
        speakers: ['ingrid', 'kenji'],
        language: 'en',
      },
      { key: 'lunch2', title: 'Lunch', kind: 'meal', day: 1, starts: '10:30', ends: '11:30' },
      {
        key: 'closing',
        title: 'Closing keynote: design is a team sport',
        kind: 'keynote',
        day: 1,
        starts: '11:30',
        ends: '12:15',
        room: 'main',
        track: 'design',
        speakers: ['amara'],
        language: 'en',
      },
    ],
  },
  {
    event: 'meetup',
    startDay: 12,
    rooms: [
      { key: 'hall', name: 'Stream Hall', capacity: 90, location: '6F' },
      { key: 'lounge', name: 'Lounge', capacity: null, location: '6F, by the windows' },
    ],
    tracks: [],
    speakers: [
      {
        key: 'yuki',
        name: 'Yuki Tanaka',
        company: 'Kitsune Works',
        jobTitle: 'Frontend Engineer',
        bio: 'Yuki maintains a popular component library.',
      },
      {
        key: 'hana',
        name: 'Hana Sato',
        company: 'Sakura Systems',
        jobTitle: 'Designer',
        bio: 'Hana designs for accessibility first.',
      },
    ],
    sessions: [
      {
        key: 'welcome',
        title: 'Doors open',
        kind: 'networking',
        day: 0,
        starts: '09:00',
        ends: '09:30',
        room: 'lounge',
      },
      {
        key: 'signals',
        title: 'Signals in practice',
        kind: 'talk',
        day: 0,
        starts: '09:30',
        ends: '10:00',
        room: 'hall',
        speakers: ['yuki'],
        language: 'ja',
      },
      {
        key: 'a11y',
        title: 'Accessible forms, the easy way',
        kind: 'talk',
        day: 0,
        starts: '10:10',
        ends: '10:40',
        room: 'hall',
        speakers: ['hana'],
        language: 'en',
      },
      {
        key: 'pizza',
        title: 'Pizza and drinks',
        kind: 'meal',
        day: 0,
        starts: '10:45',
        ends: '12:00',
        room: 'lounge',
      },
    ],
  },
  {
    event: 'remote',
    startDay: 20,
    rooms: [],
    tracks: [],
    speakers: [
      {
        key: 'omar',
        name: 'Omar Haddad',
        company: 'Polar Data',
        jobTitle: 'Site Reliability Engineer',
        bio: 'Omar has been on call for a decade and still likes it.',
      },
      {
        key: 'sofia',
        name: 'Sofia Costa',
        company: 'Northwind AS',
        jobTitle: 'Platform Lead',
        bio: 'Sofia runs the platform team at Northwind.',
      },
    ],
    sessions: [
      {
        key: 'oncall',
        title: 'Humane on-call',
        kind: 'keynote',
        day: 0,
        starts: '13:00',
        ends: '13:45',
        speakers: ['omar'],
        language: 'en',
        join: { provider: 'Zoom', url: 'https://zoom.example.com/j/81234567890?pwd=sample' },
      },
      {
        key: 'postmortems',
        title: 'Postmortems people read',
        kind: 'talk',
        day: 0,
        starts: '14:00',
        ends: '14:45',
        speakers: ['sofia'],
        language: 'en',
        join: { provider: 'YouTube Live', url: 'https://youtube.example.com/live/sample-postmortems' },
      },
      {
        key: 'ama',
        title: 'Ask us anything',
        kind: 'panel',
        day: 0,
        starts: '15:00',
        ends: '16:00',
        speakers: ['omar', 'sofia'],
        join: { provider: 'Zoom', url: 'https://zoom.example.com/j/89876543210?pwd=sample' },
      },
    ],
  },
];

function emailOf(name: string): string {
  return `${name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')}@example.com`;
}

export async function insertSampleProgramme(db: Db, sample: SampleContext): Promise<void> {
  const created = new Date(sample.day0.getTime() - 20 * 86_400_000).toISOString();
  const stamp = async () => ({
    created_utc: created,
    updated_utc: created,
    change_seq: await nextChangeSeq(db),
  });
  for (const p of programmes) {
    const eventId = sample.id(`event/${p.event}`);
    const owned = { workspace_id: sample.workspaceId, event_id: eventId };
    const roomId = (key: string) => sample.id(`room/${p.event}/${key}`);
    const trackId = (key: string) => sample.id(`track/${p.event}/${key}`);
    const speakerId = (key: string) => sample.id(`speaker/${p.event}/${key}`);
    const at = (day: number, hhmm: string) => {
      const [h, m] = hhmm.split(':').map(Number);
      return new Date(
        sample.day0.getTime() + (p.startDay + day) * 86_400_000 + (h! * 60 + m!) * 60_000,
      ).toISOString();
    };

    for (const [i, r] of p.rooms.entries()) {
      await db
        .insertInto('rooms')
        .values({
          id: roomId(r.key),
          ...owned,
          name: r.name,
          capacity: r.capacity,
          location: r.location,
          sort_order: i + 1,
          ...(await stamp()),
        })
        .execute();
    }
    for (const [i, t] of p.tracks.entries()) {
      await db
        .insertInto('tracks')
        .values({
          id: trackId(t.key),
          ...owned,
          name: t.name,
          colour: t.colour,
          description: t.description,
          sort_order: i + 1,
          ...(await stamp()),
        })
        .execute();
    }
    for (const s of p.speakers) {
      await db
        .insertInto('speakers')
        .values({
          id: speakerId(s.key),
          ...owned,
          name: s.name,
          email: emailOf(s.name),
          company: s.company,
          job_title: s.jobTitle,
          bio: s.bio,
          photo_url: `https://example.com/speakers/${s.key}.jpg`,
          erased: 0,
          ...(await stamp()),
        })
        .execute();
    }
    for (const s of p.sessions) {
      await db
        .insertInto('sessions')
        .values({
          id: sample.id(`session/${p.event}/${s.key}`),
          ...owned,
          title: s.title,
          summary: s.summary ?? null,
          kind: s.kind,
          room_id: s.room ? roomId(s.room) : null,
          track_id: s.track ? trackId(s.track) : null,
          starts_utc: at(s.day, s.starts),
          ends_utc: at(s.day, s.ends),
          capacity: s.capacity ?? null,
          language: s.language ?? null,
          join_provider: s.join?.provider ?? null,
          join_url: s.join?.url ?? null,
          speaker_ids: JSON.stringify((s.speakers ?? []).map(speakerId)),
          ...(await stamp()),
        })
        .execute();
    }
  }
}
