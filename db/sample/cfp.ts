// Sample call for speakers: at the summit, eleven submissions in every status, each with the
// history that led there (one accepted after the waitlist, one withdrawn after review) and the
// reviewers' scores; one accepted workshop became a session of the programme (read from the
// database, its speakers the session's); co-speakers on several; one co-speaker erased their data.
// The summit's call is open (its window, formats and tracks). The meetup has no call for speakers: its cfp module is switched off (events.ts), to show moduleOff.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import { type SubmissionFormat, type SubmissionStatus, submissionFormats } from '../values';
import type { SampleContext } from './context';
import { dottedEmail } from './random';

interface SpeakerSpec {
  name: string;
  company: string | null;
  bio: string | null;
  /** Made from the name unless given (a programme speaker's own). */
  email?: string | null;
  erased?: boolean;
}

interface SubmissionSpec {
  key: string;
  title: string;
  abstract: string;
  format: SubmissionFormat;
  track: string | null;
  language: string;
  /** Its statuses in order, each with the day (from the sample's day) it was taken. */
  history: [SubmissionStatus, number][];
  /** The reviewers' scores. */
  scores: number[];
  speakers: SpeakerSpec[];
  /** Became a session of the programme: its speakers, track and language are the session's. */
  fromSession?: boolean;
}

const summit: SubmissionSpec[] = [
  {
    key: 'experiments',
    title: 'Workshop: running experiments',
    abstract: 'Design, run and read a product experiment in ninety minutes, with real data.',
    format: 'workshop',
    track: null,
    language: 'en',
    history: [
      ['draft', -68],
      ['submitted', -66],
      ['underReview', -34],
      ['accepted', -28],
    ],
    scores: [5, 4, 5],
    speakers: [],
    fromSession: true,
  },
  {
    key: 'onboarding',
    title: 'Onboarding that teaches',
    abstract: 'What we learnt replacing product tours with tasks people already came to do.',
    format: 'talk',
    track: 'design',
    language: 'en',
    history: [
      ['submitted', -60],
      ['underReview', -34],
      ['accepted', -27],
    ],
    scores: [4, 5, 4, 4],
    speakers: [
      { name: 'Nora Berg', company: 'Tidal Apps', bio: 'Nora designs onboarding for consumer apps.' },
      { name: 'Emil Strand', company: 'Tidal Apps', bio: 'Emil runs the growth team at Tidal.' },
    ],
  },
  {
    key: 'ai-trust',
    title: 'AI features users trust',
    abstract: 'Explaining, undoing and opting out: three patterns that made our assistant usable.',
    format: 'talk',
    track: 'strategy',
    language: 'en',
    history: [
      ['submitted', -55],
      ['underReview', -34],
      ['waitlisted', -27],
    ],
    scores: [4, 3, 4],
    speakers: [{ name: 'Sanna Lind', company: 'Polar Data', bio: 'Sanna leads applied AI at Polar.' }],
  },
  {
    key: 'one-metric',
    title: 'One metric, five minutes',
    abstract: 'A lightning tour of the single number our team steers by, and the ones we dropped.',
    format: 'lightning',
    track: 'engineering',
    language: 'en',
    history: [
      ['submitted', -50],
      ['underReview', -34],
      ['waitlisted', -27],
      ['accepted', -20],
    ],
    scores: [3, 4],
    speakers: [{ name: 'Jonas Eide', company: null, bio: null }],
  },
  {
    key: 'loyalty-tokens',
    title: 'Tokenising loyalty',
    abstract: 'Why every loyalty programme should live on a blockchain.',
    format: 'talk',
    track: 'strategy',
    language: 'en',
    history: [
      ['submitted', -52],
      ['underReview', -34],
      ['rejected', -28],
    ],
    scores: [2, 1, 2],
    speakers: [{ name: 'Viktor Hale', company: 'Chainly', bio: 'Viktor founded three start-ups.' }],
  },
  {
    key: 'remote-panel',
    title: 'Panel: product teams across time zones',
    abstract: 'Three leads on rituals, documents and the meetings they stopped having.',
    format: 'panel',
    track: 'strategy',
    language: 'en',
    history: [
      ['submitted', -45],
      ['underReview', -33],
    ],
    scores: [4],
    speakers: [
      { name: 'Maja Holm', company: 'Northwind AS', bio: 'Maja moderates the Oslo product meetup.' },
      {
        name: 'Rafael Costa',
        company: 'Atlântico Design',
        bio: 'Rafael leads a team spread over four countries.',
      },
      { name: 'Mina Sato', company: 'Sakura Systems', bio: null },
    ],
  },
  {
    key: 'accessible',
    title: 'Tilgjengelig fra start',
    abstract: 'Hvordan vi gjorde tilgjengelighet til en del av definisjonen av ferdig.',
    format: 'talk',
    track: 'design',
    language: 'nb',
    history: [
      ['submitted', -40],
      ['underReview', -33],
    ],
    scores: [],
    speakers: [{ name: 'Ola Nordmann', company: 'Fjord Labs', bio: 'Ola is an accessibility specialist.' }],
  },
  {
    key: 'pricing-lab',
    title: 'Pricing experiments in the wild',
    abstract: 'A hands-on session on testing prices without angering customers.',
    format: 'workshop',
    track: 'strategy',
    language: 'en',
    history: [['submitted', -38]],
    scores: [],
    speakers: [
      { name: 'Helena Brandt', company: 'Lumen Studio', bio: 'Helena prices software for a living.' },
    ],
  },
  {
    key: 'failed-launch',
    title: 'Notes from a failed launch',
    abstract: 'Draft: what went wrong, and what we would keep.',
    format: 'lightning',
    track: null,
    language: 'en',
    history: [['draft', -36]],
    scores: [],
    speakers: [{ name: 'Petter Moe', company: null, bio: null }],
  },
  {
    key: 'design-systems',
    title: 'Scaling design systems',
    abstract: 'Tokens, governance and the day we deleted half our components.',
    format: 'talk',
    track: 'design',
    language: 'en',
    history: [
      ['draft', -62],
      ['submitted', -61],
      ['underReview', -34],
      ['withdrawn', -30],
    ],
    scores: [3],
    speakers: [
      { name: 'Iris Dahl', company: 'Guild Studio', bio: 'Iris maintains a design system for 40 teams.' },
    ],
  },
  {
    key: 'research-ops',
    title: 'Research ops on a shoestring',
    abstract: 'Recruiting, consent and a repository of insights for a team of two.',
    format: 'talk',
    track: 'design',
    language: 'en',
    history: [
      ['submitted', -48],
      ['underReview', -34],
      ['rejected', -29],
    ],
    scores: [3, 2, 3],
    speakers: [
      { name: 'Karin Aune', company: 'Lumen Studio', bio: 'Karin set up research ops at two agencies.' },
      { name: 'Former Speaker', company: 'Gone AS', bio: 'Erased.', erased: true },
    ],
  },
];

const decisions: SubmissionStatus[] = ['accepted', 'waitlisted', 'rejected'];

export async function insertSampleCfp(db: Db, sample: SampleContext): Promise<void> {
  await insertCall(db, sample, 'summit');
  await insertSubmissions(db, sample, 'summit', summit);
}

/** The summit's call: opened 40 days ago, still open for ten days, every format, all its tracks. */
async function insertCall(db: Db, sample: SampleContext, eventKey: string): Promise<void> {
  const eventId = sample.id(`event/${eventKey}`);
  const day = (n: number) => new Date(sample.day0.getTime() + n * 86_400_000).toISOString();
  const tracks = await db
    .selectFrom('tracks')
    .select('id')
    .where('event_id', '=', eventId)
    .orderBy('id')
    .execute();
  await db
    .insertInto('calls_for_speakers')
    .values({
      event_id: eventId,
      workspace_id: sample.workspaceId,
      opens_utc: day(-40),
      closes_utc: day(10),
      formats: JSON.stringify(submissionFormats),
      track_ids: JSON.stringify(tracks.map((t) => t.id)),
      created_utc: day(-41),
      updated_utc: day(-41),
    })
    .execute();
}

async function insertSubmissions(
  db: Db,
  sample: SampleContext,
  eventKey: string,
  specs: SubmissionSpec[],
): Promise<void> {
  const eventId = sample.id(`event/${eventKey}`);
  // Distinct hours keep the changes of one day in the order they are listed.
  const at = (day: number, hour: number) =>
    new Date(sample.day0.getTime() + day * 86_400_000 + hour * 3_600_000).toISOString();
  const session = await sessionWithSpeakers(db, eventId);
  for (const [n, s] of specs.entries()) {
    const id = sample.id(`submission/${eventKey}/${s.key}`);
    const hour = 8 + (n % 10);
    const history = s.history.map(([status, day]) => ({ status, at: at(day, hour) }));
    const last = history[history.length - 1]!;
    const linked = s.fromSession && last.status === 'accepted' ? session : undefined;
    const speakers: SpeakerSpec[] = linked?.speakers ?? s.speakers;
    await db
      .insertInto('submissions')
      .values({
        id,
        workspace_id: sample.workspaceId,
        event_id: eventId,
        title: linked?.title ?? s.title,
        abstract: s.abstract,
        format: s.format,
        track_id: linked ? linked.trackId : s.track ? sample.id(`track/${eventKey}/${s.track}`) : null,
        language: linked?.language ?? s.language,
        status: last.status,
        session_id: linked?.id ?? null,
        submitted_utc: history.find((h) => h.status === 'submitted')?.at ?? null,
        decided_utc: history.filter((h) => decisions.includes(h.status)).at(-1)?.at ?? null,
        created_utc: history[0]!.at,
        updated_utc: last.at,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    for (const [i, p] of speakers.entries()) {
      await db
        .insertInto('submission_speakers')
        .values({
          id: sample.id(`submission/${eventKey}/${s.key}/speaker/${i}`),
          workspace_id: sample.workspaceId,
          submission_id: id,
          sort_order: i + 1,
          name: p.erased ? null : p.name,
          email: p.erased ? null : (p.email ?? dottedEmail(p.name)),
          company: p.erased ? null : p.company,
          bio: p.erased ? null : p.bio,
          erased: p.erased ? 1 : 0,
          created_utc: history[0]!.at,
          updated_utc: history[0]!.at,
          change_seq: await nextChangeSeq(db),
        })
        .execute();
    }
    for (const h of history)
      await db
        .insertInto('submission_status_changes')
        .values({ workspace_id: sample.workspaceId, submission_id: id, status: h.status, at_utc: h.at })
        .execute();
    // Reviews are given while it is under review, one a day.
    const reviewFrom = s.history.find(([status]) => status === 'underReview')?.[1] ?? 0;
    for (const [i, score] of s.scores.entries())
      await db
        .insertInto('submission_reviews')
        .values({
          id: sample.id(`submission/${eventKey}/${s.key}/review/${i}`),
          workspace_id: sample.workspaceId,
          submission_id: id,
          score,
          reviewed_utc: at(reviewFrom, 20 + i),
          created_utc: at(reviewFrom, 20 + i),
          updated_utc: at(reviewFrom, 20 + i),
          change_seq: await nextChangeSeq(db),
        })
        .execute();
  }
}

/** The event's first workshop given by more than one speaker (else its first talk), with its speakers. */
async function sessionWithSpeakers(db: Db, eventId: string) {
  const sessions = await db
    .selectFrom('sessions')
    .select(['id', 'title', 'kind', 'track_id', 'language', 'speaker_ids'])
    .where('event_id', '=', eventId)
    .where('kind', 'in', ['workshop', 'talk'])
    .orderBy('starts_utc')
    .orderBy('id')
    .execute();
  const withIds = sessions.map((s) => ({ ...s, speakerIds: JSON.parse(s.speaker_ids) as string[] }));
  const chosen =
    withIds.find((s) => s.kind === 'workshop' && s.speakerIds.length > 1) ??
    withIds.find((s) => s.speakerIds.length > 0);
  if (!chosen) return undefined;
  const speakers = await db
    .selectFrom('speakers')
    .select(['id', 'name', 'email', 'company', 'bio'])
    .where('id', 'in', chosen.speakerIds)
    .where('erased', '=', 0)
    .execute();
  return {
    id: chosen.id,
    title: chosen.title,
    trackId: chosen.track_id,
    language: chosen.language ?? 'en',
    speakers: chosen.speakerIds
      .map((id) => speakers.find((s) => s.id === id))
      .filter((s) => s !== undefined)
      .map((s) => ({ name: s.name ?? '', email: s.email, company: s.company, bio: s.bio })),
  };
}
