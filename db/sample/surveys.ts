// Sample feedback: the summit's survey (every kind of question) with answers, a short pulse survey
// on the meetup, and ratings of the summit's sessions. Answers and ratings are drawn by a seeded
// generator, so they are the same on every run; nothing records who gave them.
import type { Db } from '../connect';
import type { SampleContext } from './context';
import { SampleRandom } from './random';
import { changeStamp, sampleUtc } from './stamps';

const summitQuestions = [
  {
    id: 'overall',
    kind: 'rating',
    label: { en: 'How was the summit overall?', nb: 'Hvordan var konferansen?' },
  },
  { id: 'recommend', kind: 'scale', label: { en: 'How likely are you to recommend it to a colleague?' } },
  {
    id: 'heard',
    kind: 'choice',
    label: { en: 'How did you hear about us?' },
    options: [
      { value: 'colleague', label: { en: 'A colleague' } },
      { value: 'social', label: { en: 'Social media' } },
      { value: 'newsletter', label: { en: 'Our newsletter' } },
    ],
  },
  {
    id: 'topics',
    kind: 'multipleChoice',
    label: { en: 'Which topics should we cover next year?' },
    options: [
      { value: 'ai', label: { en: 'AI in products' } },
      { value: 'research', label: { en: 'User research' } },
      { value: 'pricing', label: { en: 'Pricing' } },
      { value: 'leadership', label: { en: 'Leadership' } },
    ],
  },
  { id: 'again', kind: 'yesNo', label: { en: 'Will you come again?' } },
  { id: 'comments', kind: 'text', label: { en: 'Anything else?' } },
];

const comments = [
  'Great talks, too little coffee.',
  'The workshop room was too small.',
  'Loved the hallway track.',
  'More time for questions, please.',
];

type Question = (typeof summitQuestions)[number];

interface SurveySpec {
  key: string;
  event: string;
  title: Record<string, string>;
  questions: Question[];
  opens: string | null;
  closes: string | null;
  responses: number;
}

/** `days` from the sample's day at `hour` UTC. */
const at = (sample: SampleContext, days: number, hour = 12) => sampleUtc(sample, days, hour * 60);

export async function insertSampleSurveys(db: Db, sample: SampleContext): Promise<void> {
  // One generator for the answers, then the ratings: the draws depend on the order.
  const random = new SampleRandom(4242);
  const surveys: SurveySpec[] = [
    {
      key: 'summit-feedback',
      event: sample.id('event/summit'),
      title: { en: 'Summit feedback', nb: 'Tilbakemelding' },
      questions: summitQuestions,
      opens: at(sample, -2),
      closes: at(sample, 30),
      responses: 24,
    },
    {
      key: 'meetup-pulse',
      event: sample.id('event/meetup'),
      title: { en: 'Quick pulse', ja: 'アンケート' },
      questions: [summitQuestions[0]!, summitQuestions[4]!],
      opens: null,
      closes: null,
      responses: 6,
    },
  ];
  for (const s of surveys) {
    await insertSurvey(db, sample, s);
    await insertResponses(db, sample, s, random);
  }
  await insertSessionRatings(db, sample, random);
}

async function insertSurvey(db: Db, sample: SampleContext, s: SurveySpec): Promise<void> {
  await db
    .insertInto('surveys')
    .values({
      id: sample.id(`survey/${s.key}`),
      workspace_id: sample.workspaceId,
      event_id: s.event,
      title: JSON.stringify(s.title),
      questions: JSON.stringify(s.questions),
      opens_utc: s.opens,
      closes_utc: s.closes,
      ...(await changeStamp(db, at(sample, -10), at(sample, -3))),
    })
    .execute();
}

/** The survey's responses, submitted yesterday. */
async function insertResponses(db: Db, sample: SampleContext, s: SurveySpec, random: SampleRandom) {
  for (let i = 0; i < s.responses; i++) {
    const answers: Record<string, unknown> = {};
    for (const q of s.questions) {
      // Not every question is answered by everyone.
      if (random.next() < 0.15) continue;
      const answer = drawAnswer(q, random);
      if (answer !== undefined) answers[q.id] = answer;
    }
    await db
      .insertInto('survey_responses')
      .values({
        id: sample.id(`survey/${s.key}/response/${i}`),
        workspace_id: sample.workspaceId,
        survey_id: sample.id(`survey/${s.key}`),
        answers: JSON.stringify(answers),
        submitted_utc: at(sample, -1, 8 + (i % 10)),
      })
      .execute();
  }
}

/** An answer to the question as its kind takes it; undefined: a text question left blank. */
function drawAnswer(q: Question, random: SampleRandom): unknown {
  if (q.kind === 'rating')
    return random.weighted([
      [5, 5],
      [4, 4],
      [3, 2],
      [2, 1],
      [1, 1],
    ] as const);
  if (q.kind === 'scale') return random.int(3, 10);
  if (q.kind === 'choice') return random.pick(q.options!.map((o) => o.value));
  if (q.kind === 'multipleChoice') return q.options!.map((o) => o.value).filter(() => random.next() < 0.4);
  if (q.kind === 'yesNo') return random.next() < 0.7;
  if (q.kind === 'text' && random.next() < 0.4) return random.pick(comments);
  return undefined;
}

/** Ratings of the summit's sessions, given yesterday; the last session is left unrated. */
async function insertSessionRatings(db: Db, sample: SampleContext, random: SampleRandom): Promise<void> {
  const summit = sample.id('event/summit');
  const sessions = await db
    .selectFrom('sessions')
    .select('id')
    .where('event_id', '=', summit)
    .orderBy('starts_utc')
    .orderBy('id')
    .execute();
  for (const [n, session] of sessions.slice(0, -1).entries()) {
    const count = random.int(2, 9);
    for (let i = 0; i < count; i++) {
      await db
        .insertInto('session_ratings')
        .values({
          id: sample.id(`rating/${session.id}/${i}`),
          workspace_id: sample.workspaceId,
          event_id: summit,
          session_id: session.id,
          stars: random.weighted([
            [5, 4],
            [4, 4],
            [3, 2],
            [2, 1],
            [1, 1],
          ] as const),
          rated_utc: at(sample, -1, 9 + (n % 8)),
        })
        .execute();
    }
  }
}
