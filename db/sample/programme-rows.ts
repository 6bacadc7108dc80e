// Writes an event's sample programme, as db/sample/programme.ts plans it: its rooms, tracks and
// speakers, then the sessions that name them. Everything was set up twenty days ago.
import type { Db } from '../connect';
import type { SampleContext } from './context';
import { dottedEmail } from './random';
import { changeStamp, sampleUtc } from './stamps';

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

export interface EventProgramme {
  event: string;
  /** Days from the sample's day to the event's first day. */
  startDay: number;
  rooms: RoomSpec[];
  tracks: TrackSpec[];
  speakers: SpeakerSpec[];
  sessions: SessionSpec[];
}

const setUpStamp = (db: Db, sample: SampleContext) => changeStamp(db, sampleUtc(sample, -20));

/** The row's workspace and event. */
const ownedBy = (sample: SampleContext, p: EventProgramme) => ({
  workspace_id: sample.workspaceId,
  event_id: sample.id(`event/${p.event}`),
});

export async function insertRooms(db: Db, sample: SampleContext, p: EventProgramme): Promise<void> {
  for (const [i, r] of p.rooms.entries()) {
    await db
      .insertInto('rooms')
      .values({
        id: sample.id(`room/${p.event}/${r.key}`),
        ...ownedBy(sample, p),
        name: r.name,
        capacity: r.capacity,
        location: r.location,
        sort_order: i + 1,
        ...(await setUpStamp(db, sample)),
      })
      .execute();
  }
}

export async function insertTracks(db: Db, sample: SampleContext, p: EventProgramme): Promise<void> {
  for (const [i, t] of p.tracks.entries()) {
    await db
      .insertInto('tracks')
      .values({
        id: sample.id(`track/${p.event}/${t.key}`),
        ...ownedBy(sample, p),
        name: t.name,
        colour: t.colour,
        description: t.description,
        sort_order: i + 1,
        ...(await setUpStamp(db, sample)),
      })
      .execute();
  }
}

export async function insertSpeakers(db: Db, sample: SampleContext, p: EventProgramme): Promise<void> {
  for (const s of p.speakers) {
    await db
      .insertInto('speakers')
      .values({
        id: sample.id(`speaker/${p.event}/${s.key}`),
        ...ownedBy(sample, p),
        name: s.name,
        email: dottedEmail(s.name),
        company: s.company,
        job_title: s.jobTitle,
        bio: s.bio,
        photo_url: `https://example.com/speakers/${s.key}.jpg`,
        erased: 0,
        ...(await setUpStamp(db, sample)),
      })
      .execute();
  }
}

export async function insertSessions(db: Db, sample: SampleContext, p: EventProgramme): Promise<void> {
  /** Day `day` of the event (from 0) at UTC time HH:mm. */
  const at = (day: number, hhmm: string) => {
    const [h, m] = hhmm.split(':').map(Number);
    return sampleUtc(sample, p.startDay + day, h! * 60 + m!);
  };
  const speakerId = (key: string) => sample.id(`speaker/${p.event}/${key}`);
  for (const s of p.sessions) {
    await db
      .insertInto('sessions')
      .values({
        id: sample.id(`session/${p.event}/${s.key}`),
        ...ownedBy(sample, p),
        title: s.title,
        summary: s.summary ?? null,
        kind: s.kind,
        room_id: s.room ? sample.id(`room/${p.event}/${s.room}`) : null,
        track_id: s.track ? sample.id(`track/${p.event}/${s.track}`) : null,
        starts_utc: at(s.day, s.starts),
        ends_utc: at(s.day, s.ends),
        capacity: s.capacity ?? null,
        language: s.language ?? null,
        join_provider: s.join?.provider ?? null,
        join_url: s.join?.url ?? null,
        speaker_ids: JSON.stringify((s.speakers ?? []).map(speakerId)),
        ...(await setUpStamp(db, sample)),
      })
      .execute();
  }
}
