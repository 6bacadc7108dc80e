// Import of an event's sponsor levels, sponsors and the leads their staff captured. A lead holds the
// visitor's details only when the visitor agreed to share them (the schema refuses anything else).
import * as v from 'valibot';
import { leadOrigins } from '../../../db/values';
import { ownRecord } from '../../platform/own-record';
import { oneLine } from '../../platform/schemas';
import { date, email, key, list, name, orFalse, orNull, ref, utc, whole, words } from '../fields';
import { flag, type ImportPlan, json } from '../plan';
import { type EventScope, eachItem, owned } from '../scope';

export const sponsorLevelFormat = v.strictObject({
  key: key('sponsor level'),
  name: name('Name, e.g. Gold.'),
  rank: whole('From 1 up, highest first.', 1, 100),
  colour: v.optional(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/), v.description('#rrggbb.')), '#c9a227'),
  staffAllowance: v.optional(whole('Staff passes.'), 0),
  freeTickets: v.optional(whole('Free tickets.'), 0),
  leadDownload: orFalse('The sponsor may export its leads.'),
  leadExportUntil: orNull(date('Last day the sponsor may export its leads')),
  discountCodes: v.optional(whole('Discount codes the sponsor may hand out.'), 0),
  discountPercent: v.optional(whole('Percent off with those codes.', 0, 100), 0),
  logoOnPage: orFalse('Logo on the event page.'),
  logoOnScreens: orFalse('Logo on the venue screens.'),
  logoOnBadges: orFalse('Logo on the badges.'),
  sponsoredSession: orFalse('A sponsored session.'),
});

export const sponsorFormat = v.strictObject({
  key: key('sponsor'),
  level: orNull(ref('sponsor level')),
  name: name('Name.'),
  website: orNull(v.pipe(v.string(), oneLine, v.url(), v.description('Web address.'))),
  logoUrl: orNull(v.pipe(v.string(), oneLine, v.url(), v.description('Logo address.'))),
  description: orNull(words('Description.')),
  booth: orNull(name('Booth.', 100)),
});

export const leadFormat = v.strictObject({
  key: key('lead'),
  sponsor: ref('sponsor'),
  attendee: orNull(ref('attendee')),
  shared: v.pipe(
    v.boolean(),
    v.description('The visitor agreed to share their details; without it no detail is kept.'),
  ),
  emailShared: orFalse('The visitor shares their email address too.'),
  firstName: orNull(name('Only when shared. Personal data.')),
  lastName: orNull(name('Only when shared. Personal data.')),
  company: orNull(name('Only when shared. Personal data.')),
  jobTitle: orNull(name('Only when shared. Personal data.')),
  email: orNull(email('Only when shared with emailShared. Personal data.')),
  answers: orNull(
    v.pipe(
      ownRecord(v.pipe(v.string(), oneLine), v.unknown()),
      v.description('Answers to the sponsor questions.'),
    ),
  ),
  origin: v.optional(v.picklist(leadOrigins), 'booth'),
  rating: v.optional(whole('1 cold, 2 warm, 3 hot.', 1, 3), 2),
  note: orNull(words("The booth staff's note.")),
  capturedBy: name('Who scanned.'),
  capturedUtc: utc('When'),
  attendedSession: orNull(ref('session')),
});

export const sponsorsFormat = {
  sponsorLevels: list(sponsorLevelFormat, 'Sponsor levels.', 100),
  sponsors: list(sponsorFormat, 'Sponsors.', 1000),
  leads: list(leadFormat, "Sponsors' leads."),
};

type SponsorsInput = v.InferOutput<v.ObjectSchema<typeof sponsorsFormat, undefined>>;

export function planSponsors(scope: EventScope, input: SponsorsInput): void {
  planLevels(scope, input);
  planSponsorRows(scope, input);
  planLeads(scope, input);
}

function planLevels(scope: EventScope, input: SponsorsInput): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'sponsorLevels', (l, path) => {
    plan.add(
      'sponsor_levels',
      {
        ...owned(scope, plan.claim('sponsorLevel', ek, l.key, path)),
        name: l.name,
        rank: l.rank,
        colour: l.colour,
        staff_allowance: l.staffAllowance,
        free_tickets: l.freeTickets,
        lead_download: flag(l.leadDownload),
        lead_export_until: l.leadExportUntil,
        discount_codes: l.discountCodes,
        discount_percent: l.discountPercent,
        logo_on_page: flag(l.logoOnPage),
        logo_on_screens: flag(l.logoOnScreens),
        logo_on_badges: flag(l.logoOnBadges),
        sponsored_session: flag(l.sponsoredSession),
      },
      path,
    );
  });
}

function planSponsorRows(scope: EventScope, input: SponsorsInput): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'sponsors', (s, path, i) => {
    plan.add(
      'sponsors',
      {
        ...owned(scope, plan.claim('sponsor', ek, s.key, path)),
        level_id: plan.refOrNull('sponsorLevel', ek, s.level, `${path}.level`, 'sponsor level'),
        name: s.name,
        website: s.website,
        logo_url: s.logoUrl,
        description: s.description,
        booth: s.booth,
        sort_order: i + 1,
      },
      path,
    );
  });
}

type LeadInput = SponsorsInput['leads'][number];

/** Refuses details a visitor did not agree to share, and a second lead of a sponsor on one ticket. */
function checkLead(plan: ImportPlan, l: LeadInput, path: string, visitors: Map<string, string>): void {
  const details = [l.firstName, l.lastName, l.company, l.jobTitle, l.answers];
  if (!l.shared && (l.emailShared || details.some((d) => d !== null)))
    plan.issue(`${path}.shared`, 'A visitor who did not agree to share gives no details.');
  if (l.email !== null && !l.emailShared)
    plan.issue(`${path}.email`, 'An email address only with emailShared.');
  if (l.attendee !== null) {
    const visit = `${l.sponsor}/${l.attendee}`;
    if (visitors.has(visit))
      plan.issue(`${path}.attendee`, `${visitors.get(visit)} is this sponsor's lead on this ticket.`);
    visitors.set(visit, path);
  }
}

function planLeads(scope: EventScope, input: SponsorsInput): void {
  const { plan, eventKey: ek } = scope;
  const visitors = new Map<string, string>();
  eachItem(scope, input, 'leads', (l, path) => {
    const id = plan.claim('lead', ek, l.key, path);
    checkLead(plan, l, path, visitors);
    plan.add(
      'leads',
      {
        ...owned(scope, id),
        sponsor_id: plan.ref('sponsor', ek, l.sponsor, `${path}.sponsor`, 'sponsor'),
        attendee_id: plan.refOrNull('attendee', ek, l.attendee, `${path}.attendee`, 'attendee'),
        shared: flag(l.shared),
        email_shared: flag(l.emailShared),
        first_name: l.firstName,
        last_name: l.lastName,
        company: l.company,
        job_title: l.jobTitle,
        email: l.email,
        answers: l.answers === null ? null : json(l.answers),
        origin: l.origin,
        rating: l.rating,
        note: l.note,
        captured_by: l.capturedBy,
        captured_utc: plan.utc(l.capturedUtc, `${path}.capturedUtc`),
        attended_session_id: plan.refOrNull(
          'session',
          ek,
          l.attendedSession,
          `${path}.attendedSession`,
          'session',
        ),
      },
      path,
      { erased: 0 },
    );
  });
}
