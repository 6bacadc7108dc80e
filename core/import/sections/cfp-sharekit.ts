// Import of an event's call-for-speakers submissions (speakers, status history, reviewers' scores)
// and its share kit (sharers, their links, the clicks on them and the tickets they brought).
import * as v from 'valibot';
import { shareChannels, sharerKinds, submissionFormats, submissionStatuses } from '../../../db/values';
import { email, key, language, list, name, orNull, ref, utc, whole, words } from '../fields';
import type { ImportPlan } from '../plan';
import { type EventScope, eachItem, owned } from '../scope';

const decided = new Set(['accepted', 'waitlisted', 'rejected']);

export const submissionFormat = v.strictObject({
  key: key('submission'),
  title: name('Title.', 300),
  abstract: words('Abstract in Markdown.', 20_000),
  format: v.optional(v.picklist(submissionFormats), 'talk'),
  track: orNull(ref('track')),
  language: v.optional(language),
  session: orNull(ref('session (once accepted)')),
  speakers: v.pipe(
    v.array(
      v.strictObject({
        name: orNull(name('Name. Personal data.')),
        email: orNull(email('Email address. Personal data.')),
        company: orNull(name('Company. Personal data.')),
        bio: orNull(words('Short biography. Personal data.', 5000)),
      }),
    ),
    v.minLength(1),
    v.maxLength(20),
    v.description('Who would give it; the first sent it.'),
  ),
  history: v.pipe(
    v.array(v.strictObject({ status: v.picklist(submissionStatuses), atUtc: utc('When') })),
    v.minLength(1),
    v.maxLength(100),
    v.description('Every status it had, oldest first; the last is where it stands.'),
  ),
  reviews: list(
    v.strictObject({ score: whole('1 to 5.', 1, 5), reviewedUtc: utc('When') }),
    "Reviewers' scores (never who reviewed).",
    1000,
  ),
});

export const sharerFormat = v.strictObject({
  key: key('sharer'),
  kind: v.picklist(sharerKinds),
  attendee: orNull(ref('attendee')),
  speaker: orNull(ref('speaker')),
  sponsor: orNull(ref('sponsor')),
  name: orNull(name('Name. Personal data.')),
  email: orNull(email('Email address. Personal data.')),
  links: list(
    v.strictObject({
      channel: v.picklist(shareChannels),
      code: v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9_-]{3,40}$/),
        v.description("The link's ref, unique in the event."),
      ),
      sharedUtc: utc('When it was shared'),
      clicks: list(utc('A click'), 'When the link was clicked.'),
      registrations: list(ref('attendee'), 'Tickets registered through the link.'),
    }),
    'Their links, one per channel.',
    6,
  ),
});

export const cfpSharekitFormat = {
  submissions: list(submissionFormat, 'Call-for-speakers submissions.', 10_000),
  sharers: list(sharerFormat, 'Share-kit sharers with their links.'),
};

type Input = v.InferOutput<v.ObjectSchema<typeof cfpSharekitFormat, undefined>>;

type SubmissionInput = Input['submissions'][number];
type LinkInput = Input['sharers'][number]['links'][number];

export function planCfpSharekit(scope: EventScope, input: Input, defaultLanguage: string): void {
  eachItem(scope, input, 'submissions', (s, path) => {
    planSubmission(scope, s, path, defaultLanguage);
  });
  planSharers(scope, input);
}

/** A submission's history as stored, refused unless oldest first. */
function historyOf(plan: ImportPlan, s: SubmissionInput, path: string) {
  const history = s.history.map((h, j) => ({
    status: h.status,
    at: plan.utc(h.atUtc, `${path}.history[${j}].atUtc`),
  }));
  history.forEach((h, j) => {
    if (j > 0 && h.at < history[j - 1]!.at)
      plan.issue(`${path}.history[${j}].atUtc`, 'The history is oldest first.');
  });
  return history;
}

/** A submission with its speakers, its status history and its reviews. */
function planSubmission(scope: EventScope, s: SubmissionInput, path: string, defaultLanguage: string): void {
  const { plan, eventKey: ek } = scope;
  const id = plan.claim('submission', ek, s.key, path);
  const history = historyOf(plan, s, path);
  const status = history[history.length - 1]!.status;
  const sent = history.find((h) => h.status !== 'draft');
  const decision = history.filter((h) => decided.has(h.status)).pop();
  if (s.session !== null && status !== 'accepted')
    plan.issue(`${path}.session`, 'Only an accepted submission has a session.');
  plan.add(
    'submissions',
    {
      ...owned(scope, id),
      title: s.title,
      abstract: s.abstract,
      format: s.format,
      track_id: plan.refOrNull('track', ek, s.track, `${path}.track`, 'track'),
      language: s.language ?? defaultLanguage,
      status,
      session_id: plan.refOrNull('session', ek, s.session, `${path}.session`, 'session'),
      submitted_utc: status === 'draft' ? null : (sent?.at ?? null),
      decided_utc: decision?.at ?? null,
    },
    path,
  );
  planSubmissionSpeakers(scope, s, id, path);
  plan.setOf(
    'submission_status_changes',
    'submission_id',
    id,
    history.map((h) => ({
      workspace_id: scope.workspaceId,
      submission_id: id,
      status: h.status,
      at_utc: h.at,
    })),
  );
  planReviews(scope, s, id, path);
}

function planSubmissionSpeakers(scope: EventScope, s: SubmissionInput, id: string, path: string): void {
  s.speakers.forEach((p, j) => {
    scope.plan.add(
      'submission_speakers',
      {
        id: scope.plan.id('submissionSpeaker', `${scope.eventKey}/${s.key}`, String(j)),
        workspace_id: scope.workspaceId,
        submission_id: id,
        sort_order: j + 1,
        name: p.name,
        email: p.email,
        company: p.company,
        bio: p.bio,
      },
      `${path}.speakers[${j}]`,
      { erased: 0 },
    );
  });
}

function planReviews(scope: EventScope, s: SubmissionInput, id: string, path: string): void {
  const { plan } = scope;
  s.reviews.forEach((r, j) => {
    const at = `${path}.reviews[${j}]`;
    plan.add(
      'submission_reviews',
      {
        id: plan.id('review', `${scope.eventKey}/${s.key}`, String(j)),
        workspace_id: scope.workspaceId,
        submission_id: id,
        score: r.score,
        reviewed_utc: plan.utc(r.reviewedUtc, `${at}.reviewedUtc`),
      },
      at,
    );
  });
}

/** The sharers with their links; a link's code is unique in the event. */
function planSharers(scope: EventScope, input: Input): void {
  const { plan, eventKey: ek } = scope;
  const codes = new Map<string, string>();
  eachItem(scope, input, 'sharers', (s, path) => {
    const id = plan.claim('sharer', ek, s.key, path);
    const named = { attendee: s.attendee, speaker: s.speaker, sponsor: s.sponsor };
    for (const [kind, value] of Object.entries(named))
      if ((kind === s.kind) !== (value !== null))
        plan.issue(`${path}.${kind}`, `A sharer of kind ${s.kind} names their ${s.kind}, and nothing else.`);
    plan.add(
      'sharers',
      {
        ...owned(scope, id),
        kind: s.kind,
        attendee_id: plan.refOrNull('attendee', ek, s.attendee, `${path}.attendee`, 'attendee'),
        speaker_id: plan.refOrNull('speaker', ek, s.speaker, `${path}.speaker`, 'speaker'),
        sponsor_id: plan.refOrNull('sponsor', ek, s.sponsor, `${path}.sponsor`, 'sponsor'),
        name: s.name,
        email: s.email,
      },
      path,
      { erased: 0 },
    );
    s.links.forEach((l, j) => {
      const at = `${path}.links[${j}]`;
      if (codes.has(l.code)) plan.issue(`${at}.code`, `${codes.get(l.code)} has this code already.`);
      codes.set(l.code, at);
      planLink(scope, l, id, at);
    });
  });
}

/** A share link with its clicks and the tickets registered through it. */
function planLink(scope: EventScope, l: LinkInput, sharerId: string, at: string): void {
  const { plan, eventKey: ek } = scope;
  const linkId = plan.id('shareLink', ek, l.code);
  const sharedUtc = plan.utc(l.sharedUtc, `${at}.sharedUtc`);
  plan.add(
    'share_links',
    { ...owned(scope, linkId), sharer_id: sharerId, channel: l.channel, code: l.code, shared_utc: sharedUtc },
    at,
  );
  plan.setOf(
    'share_clicks',
    'link_id',
    linkId,
    l.clicks.map((c, k) => ({
      workspace_id: scope.workspaceId,
      link_id: linkId,
      clicked_utc: plan.utc(c, `${at}.clicks[${k}]`),
    })),
  );
  l.registrations.forEach((a, k) => {
    const attendeeId = plan.ref('attendee', ek, a, `${at}.registrations[${k}]`, 'attendee');
    plan.add(
      'share_registrations',
      {
        attendee_id: attendeeId,
        workspace_id: scope.workspaceId,
        link_id: linkId,
        registered_utc: sharedUtc,
      },
      `${at}.registrations[${k}]`,
    );
  });
}
