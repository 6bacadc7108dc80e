// Sample feedback: the summit's survey (every kind of question) with answers, a short pulse survey
// on the meetup, and ratings of the summit's sessions. Answers and ratings are drawn by a seeded
// generator, so they are the same on every run; nothing records who gave them.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';
import { SampleRandom } from './random';

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

export async function insertSampleSurveys(db: Db, sample: SampleContext): Promise<void> {
  const random = new SampleRandom(4242);
  const at = (days: number, hour = 12) =>
    new Date(sample.day0.getTime() + days * 86_400_000 + hour * 3_600_000).toISOString();
  const summit = sample.id('event/summit');
  const surveys = [
    {
      key: 'summit-feedback',
      event: summit,
      title: { en: 'Summit feedback', nb: 'Tilbakemelding' },
      questions: summitQuestions,
      opens: at(-2),
      closes: at(30),
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
    const id = sample.id(`survey/${s.key}`);
    await db
      .insertInto('surveys')
      .values({
        id,
        workspace_id: sample.workspaceId,
        event_id: s.event,
        title: JSON.stringify(s.title),
        questions: JSON.stringify(s.questions),
        opens_utc: s.opens,
        closes_utc: s.closes,
        created_utc: at(-10),
        updated_utc: at(-3),
        change_seq: await nextChangeSeq(db),
      })
      .execute();
    for (let i = 0; i < s.responses; i++) {
      const answers: Record<string, unknown> = {};
      for (const q of s.questions) {
        // Not every question is answered by everyone.
        if (random.next() < 0.15) continue;
        if (q.kind === 'rating')
          answers[q.id] = random.weighted([
            [5, 5],
            [4, 4],
            [3, 2],
            [2, 1],
            [1, 1],
          ] as const);
        if (q.kind === 'scale') answers[q.id] = random.int(3, 10);
        if (q.kind === 'choice') answers[q.id] = random.pick(q.options!.map((o) => o.value));
        if (q.kind === 'multipleChoice')
          answers[q.id] = q.options!.map((o) => o.value).filter(() => random.next() < 0.4);
        if (q.kind === 'yesNo') answers[q.id] = random.next() < 0.7;
        if (q.kind === 'text' && random.next() < 0.4) answers[q.id] = random.pick(comments);
      }
      await db
        .insertInto('survey_responses')
        .values({
          id: sample.id(`survey/${s.key}/response/${i}`),
          workspace_id: sample.workspaceId,
          survey_id: id,
          answers: JSON.stringify(answers),
          submitted_utc: at(-1, 8 + (i % 10)),
        })
        .execute();
    }
  }
  const sessions = await db
    .selectFrom('sessions')
    .select('id')
    .where('event_id', '=', summit)
    .orderBy('starts_utc')
    .orderBy('id')
    .execute();
  // The last session is left unrated.
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
          rated_utc: at(-1, 9 + (n % 8)),
        })
        .execute();
    }
  }
}
