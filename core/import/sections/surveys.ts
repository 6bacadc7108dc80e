// Import of an event's surveys with their answers, and session ratings. Answers are checked against
// the questions (a rating 1 to 5, a scale 0 to 10, a choice among the options, ...), since results
// are computed from them as stored.
import * as v from 'valibot';
import { ownRecord } from '../../platform/own-record';
import { oneLine } from '../../platform/schemas';
import { misfit, type SurveyQuestion, surveyQuestionKinds } from '../../surveys';
import { key, language, list, orNull, ref, utc, whole } from '../fields';
import { type ImportPlan, json } from '../plan';
import { type EventScope, eachItem, owned } from '../scope';

const byLanguage = v.pipe(
  ownRecord(language, v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(500))),
  v.description('Text by language tag.'),
);

export const surveyFormat = v.strictObject({
  key: key('survey'),
  title: byLanguage,
  questions: v.pipe(
    v.array(
      v.strictObject({
        key: key('question'),
        kind: v.picklist(surveyQuestionKinds),
        label: byLanguage,
        options: list(
          v.strictObject({
            value: v.pipe(v.string(), oneLine, v.minLength(1), v.maxLength(100)),
            label: byLanguage,
          }),
          'The options of a choice or multipleChoice question.',
          50,
        ),
      }),
    ),
    v.minLength(1),
    v.maxLength(100),
  ),
  opensUtc: orNull(utc('Opens')),
  closesUtc: orNull(utc('Closes')),
  responses: list(
    v.strictObject({
      key: key('response'),
      answers: v.pipe(
        ownRecord(v.pipe(v.string(), oneLine), v.unknown()),
        v.description('Answers keyed by question key.'),
      ),
      submittedUtc: utc('When it was sent'),
    }),
    'Its answers (never who gave them).',
  ),
});

export const ratingFormat = v.strictObject({
  key: key('rating'),
  session: ref('session'),
  stars: whole('1 to 5.', 1, 5),
  ratedUtc: utc('When'),
});

export const surveysFormat = {
  surveys: list(surveyFormat, 'Surveys with their responses.', 100),
  sessionRatings: list(ratingFormat, 'Ratings of sessions (never who rated).'),
};

type SurveysInput = v.InferOutput<v.ObjectSchema<typeof surveysFormat, undefined>>;

function checkAnswers(
  plan: ImportPlan,
  questions: SurveyQuestion[],
  answers: Record<string, unknown>,
  path: string,
) {
  const byId = new Map(questions.map((q) => [q.id, q]));
  for (const [k, answer] of Object.entries(answers)) {
    const question = byId.get(k);
    const why = question ? misfit(question, answer) : 'No question of this survey has this key.';
    if (why) plan.issue(`${path}.answers.${k}`, why);
  }
}

export function planSurveys(scope: EventScope, input: SurveysInput): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'surveys', (s, path) => {
    const id = plan.claim('survey', ek, s.key, path);
    const questions: SurveyQuestion[] = s.questions.map((q, j) => {
      const choice = q.kind === 'choice' || q.kind === 'multipleChoice';
      if (choice !== q.options.length > 0)
        plan.issue(
          `${path}.questions[${j}].options`,
          'Options go with choice and multipleChoice questions only.',
        );
      return { id: q.key, kind: q.kind, label: q.label, ...(choice ? { options: q.options } : {}) };
    });
    if (new Set(questions.map((q) => q.id)).size < questions.length)
      plan.issue(`${path}.questions`, 'Each question has a key of its own.');
    const [opens, closes] = plan.period(s.opensUtc, s.closesUtc, path, ['opensUtc', 'closesUtc']);
    plan.add(
      'surveys',
      {
        ...owned(scope, id),
        title: json(s.title),
        questions: json(questions),
        opens_utc: opens,
        closes_utc: closes,
      },
      path,
    );
    s.responses.forEach((r, j) => {
      const at = `${path}.responses[${j}]`;
      checkAnswers(plan, questions, r.answers, at);
      plan.add(
        'survey_responses',
        {
          id: plan.claim('response', `${ek}/${s.key}`, r.key, at),
          workspace_id: scope.workspaceId,
          survey_id: id,
          answers: json(r.answers),
          submitted_utc: plan.utc(r.submittedUtc, `${at}.submittedUtc`),
        },
        at,
      );
    });
  });
  eachItem(scope, input, 'sessionRatings', (r, path) => {
    plan.add(
      'session_ratings',
      {
        ...owned(scope, plan.claim('rating', ek, r.key, path)),
        session_id: plan.ref('session', ek, r.session, `${path}.session`, 'session'),
        stars: r.stars,
        rated_utc: plan.utc(r.ratedUtc, `${path}.ratedUtc`),
      },
      path,
    );
  });
}
