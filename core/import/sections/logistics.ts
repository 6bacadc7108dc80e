// Import of the sources that come in by import only: hotel stays, travel, expense claims,
// certificates and published content. Their changes become stay.*, travel.changed, claim.*,
// certificate.issued and content.published messages (see ../messages.ts).
import * as v from 'valibot';
import { certificateKinds, claimStatuses, contentKinds, stayStatuses, travelModes } from '../../../db/values';
import { newVerificationCode } from '../../certificates';
import { isCurrency } from '../../platform/money';
import { oneLine } from '../../platform/schemas';
import { amount, date, email, key, list, name, orNull, ref, utc } from '../fields';
import type { ImportPlan } from '../plan';
import { type EventScope, eachItem, owned } from '../scope';

const person = {
  firstName: orNull(name('First name. Personal data.')),
  lastName: orNull(name('Last name. Personal data.')),
  email: orNull(email('Email address. Personal data (how erasure finds them).')),
};

export const stayFormat = v.strictObject({
  key: key('stay'),
  attendee: orNull(ref('attendee')),
  ...person,
  status: v.optional(v.picklist(stayStatuses), 'requested'),
  hotel: orNull(name('The hotel, once assigned.')),
  room: orNull(name('The room, once assigned.', 50)),
  checkInDate: date('First night'),
  checkOutDate: date('Day of leaving'),
});

export const travelFormat = v.strictObject({
  key: key('journey'),
  ...person,
  mode: v.picklist(travelModes),
  from: name('Where it starts.'),
  to: name('Where it ends.'),
  departsUtc: utc('Departure'),
  arrivesUtc: utc('Arrival'),
  reference: orNull(name('Booking reference. Personal data.', 100)),
});

export const claimFormat = v.strictObject({
  key: key('expense claim'),
  ...person,
  category: name('travel, hotel, meals, ...', 50),
  amount: amount('Amount claimed'),
  currency: v.optional(
    v.pipe(v.string(), oneLine, v.description('ISO 4217 currency (default: the event’s).')),
  ),
  status: v.optional(v.picklist(claimStatuses), 'submitted'),
  submittedUtc: utc('When it was submitted'),
  approvedUtc: orNull(utc('When it was approved')),
  paidUtc: orNull(utc('When it was paid')),
});

export const certificateFormat = v.strictObject({
  key: key('certificate'),
  attendee: ref('attendee'),
  kind: v.optional(v.picklist(certificateKinds), 'attendance'),
  firstName: person.firstName,
  lastName: person.lastName,
  issuedUtc: utc('When it was issued'),
});

export const contentFormat = v.strictObject({
  key: key('content'),
  kind: v.picklist(contentKinds),
  title: name('Its title.', 300),
  session: orNull(ref('session')),
  url: v.pipe(
    v.string(),
    oneLine,
    v.url(),
    v.startsWith('https://'),
    v.description('Where it is published (https).'),
  ),
  publishedUtc: utc('When it was published'),
});

export const logisticsFormat = {
  stays: list(stayFormat, 'Hotel stays.'),
  travel: list(travelFormat, 'Journeys booked for speakers and crew.'),
  expenseClaims: list(claimFormat, 'Expense claims of speakers and crew.'),
  certificates: list(certificateFormat, 'Certificates issued to ticket holders.'),
  content: list(contentFormat, 'Slides, recordings, articles and photos published.', 10_000),
};

type Input = v.InferOutput<v.ObjectSchema<typeof logisticsFormat, undefined>>;

export function planLogistics(scope: EventScope, input: Input): void {
  planStays(scope, input);
  planTravel(scope, input);
  planClaims(scope, input);
  planCertificates(scope, input);
  planContent(scope, input);
}

function planStays(scope: EventScope, input: Input): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'stays', (s, path) => {
    if (s.checkOutDate <= s.checkInDate)
      plan.issue(`${path}.checkOutDate`, 'The day of leaving comes after the first night.');
    if (s.status === 'assigned' && s.hotel === null)
      plan.issue(`${path}.hotel`, 'An assigned stay names its hotel.');
    plan.add(
      'stays',
      {
        ...owned(scope, plan.claim('stay', ek, s.key, path)),
        attendee_id: plan.refOrNull('attendee', ek, s.attendee, `${path}.attendee`, 'attendee'),
        first_name: s.firstName,
        last_name: s.lastName,
        email: s.email,
        status: s.status,
        hotel: s.hotel,
        room: s.room,
        check_in_date: s.checkInDate,
        check_out_date: s.checkOutDate,
      },
      path,
      { erased: 0 },
    );
  });
}

function planTravel(scope: EventScope, input: Input): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'travel', (t, path) => {
    const [departs, arrives] = plan.period(t.departsUtc, t.arrivesUtc, path, ['departsUtc', 'arrivesUtc']);
    plan.add(
      'travel',
      {
        ...owned(scope, plan.claim('travel', ek, t.key, path)),
        first_name: t.firstName,
        last_name: t.lastName,
        email: t.email,
        mode: t.mode,
        from_place: t.from,
        to_place: t.to,
        departs_utc: departs,
        arrives_utc: arrives,
        reference: t.reference,
      },
      path,
      { erased: 0 },
    );
  });
}

type ClaimInput = Input['expenseClaims'][number];

/** Refuses a claim whose currency, amount or dates do not fit its status; answers whether its currency is known. */
function checkClaim(plan: ImportPlan, c: ClaimInput, currency: string, path: string): boolean {
  const known = isCurrency(currency);
  if (!known) plan.issue(`${path}.currency`, `"${currency}" is not an ISO 4217 currency.`);
  if (c.amount <= 0) plan.issue(`${path}.amount`, 'A claim is for more than 0.');
  if ((c.status === 'approved' || c.status === 'paid') && c.approvedUtc === null)
    plan.issue(`${path}.approvedUtc`, 'An approved or paid claim has approvedUtc.');
  if ((c.status === 'paid') !== (c.paidUtc !== null))
    plan.issue(`${path}.paidUtc`, 'A paid claim has paidUtc, and only a paid one.');
  return known;
}

function planClaims(scope: EventScope, input: Input): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'expenseClaims', (c, path) => {
    const currency = c.currency ?? scope.currency;
    const known = checkClaim(plan, c, currency, path);
    plan.add(
      'expense_claims',
      {
        ...owned(scope, plan.claim('claim', ek, c.key, path)),
        first_name: c.firstName,
        last_name: c.lastName,
        email: c.email,
        category: c.category,
        amount_minor: known ? plan.minor(c.amount, currency, `${path}.amount`) : 0,
        currency,
        status: c.status,
        submitted_utc: plan.utc(c.submittedUtc, `${path}.submittedUtc`),
        approved_utc: plan.utcOrNull(c.approvedUtc, `${path}.approvedUtc`),
        paid_utc: plan.utcOrNull(c.paidUtc, `${path}.paidUtc`),
      },
      path,
      { erased: 0 },
    );
  });
}

function planCertificates(scope: EventScope, input: Input): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'certificates', (c, path) => {
    plan.add(
      'certificates',
      {
        ...owned(scope, plan.claim('certificate', ek, c.key, path)),
        attendee_id: plan.ref('attendee', ek, c.attendee, `${path}.attendee`, 'attendee'),
        kind: c.kind,
        first_name: c.firstName,
        last_name: c.lastName,
        issued_utc: plan.utc(c.issuedUtc, `${path}.issuedUtc`),
      },
      path,
      // Erasure finds a certificate by its ticket.
      { erased: 0, verification_code: newVerificationCode() },
    );
  });
}

function planContent(scope: EventScope, input: Input): void {
  const { plan, eventKey: ek } = scope;
  eachItem(scope, input, 'content', (c, path) => {
    plan.add(
      'published_content',
      {
        ...owned(scope, plan.claim('content', ek, c.key, path)),
        kind: c.kind,
        title: c.title,
        session_id: plan.refOrNull('session', ek, c.session, `${path}.session`, 'session'),
        url: c.url,
        published_utc: plan.utc(c.publishedUtc, `${path}.publishedUtc`),
      },
      path,
    );
  });
}
