// Sample logistics and expense claims at the summit (made after the programme and the crew they
// name): stays of two speakers (one assigned to a hotel, one requested) and a volunteer's cancelled
// one; a speaker's flight and a volunteer's cancelled train; a speaker's claim paid, another's
// submitted and a volunteer's declined. Names and email are copied from the linked person, as the
// API copies them.
import type { Db } from '../connect';
import type { ClaimStatus, StayStatus, TravelMode, TravelStatus } from '../values';
import type { SampleContext } from './context';
import { changeStamp, sampleUtc } from './stamps';

type Who = { speaker: string } | { crew: string };

const stays: { key: string; who: Who; status: StayStatus; hotel?: string; room?: string; nights: number }[] =
  [
    {
      key: 'ingrid',
      who: { speaker: 'ingrid' },
      status: 'assigned',
      hotel: 'Hotel Continental',
      room: '512',
      nights: 2,
    },
    { key: 'kenji', who: { speaker: 'kenji' }, status: 'requested', nights: 3 },
    { key: 'henrik', who: { crew: 'henrik' }, status: 'cancelled', nights: 1 },
  ];

const journeys: {
  key: string;
  who: Who;
  mode: TravelMode;
  from: string;
  status: TravelStatus;
  hours: number;
}[] = [
  {
    key: 'kenji',
    who: { speaker: 'kenji' },
    mode: 'flight',
    from: 'Tokyo Haneda',
    status: 'booked',
    hours: 14,
  },
  { key: 'tuva', who: { crew: 'tuva' }, mode: 'train', from: 'Trondheim S', status: 'cancelled', hours: 7 },
];

const claims: { key: string; who: Who; category: string; amountMinor: number; status: ClaimStatus }[] = [
  { key: 'ingrid', who: { speaker: 'ingrid' }, category: 'travel', amountMinor: 189_000, status: 'paid' },
  { key: 'kenji', who: { speaker: 'kenji' }, category: 'meals', amountMinor: 45_050, status: 'submitted' },
  { key: 'oskar', who: { crew: 'oskar' }, category: 'taxi', amountMinor: 32_000, status: 'rejected' },
];

export async function insertSampleLogistics(db: Db, sample: SampleContext): Promise<void> {
  await insertStays(db, sample);
  await insertJourneys(db, sample);
  await insertClaims(db, sample);
}

/** The summit's first day, from the sample's day. */
const startDay = 45;

/** `day` from the sample's day at `hours` UTC. */
const at = (sample: SampleContext, day: number, hours = 9) => sampleUtc(sample, day, hours * 60);

/** The workspace and event of a row, and its personal data as not erased. */
const ownedBy = (sample: SampleContext) => ({
  workspace_id: sample.workspaceId,
  event_id: sample.id('event/summit'),
  erased: 0 as const,
});

/** The link and the copied names and email of a speaker or volunteer of the summit. */
async function person(db: Db, sample: SampleContext, who: Who) {
  const [table, id] =
    'speaker' in who
      ? (['speakers', sample.id(`speaker/summit/${who.speaker}`)] as const)
      : (['crew_members', sample.id(`crew/summit/${who.crew}`)] as const);
  const row = await db
    .selectFrom(table)
    .select(['name', 'email'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const [first, ...rest] = (row.name ?? '').split(' ');
  return {
    speaker_id: table === 'speakers' ? id : null,
    crew_member_id: table === 'crew_members' ? id : null,
    first_name: first || null,
    last_name: rest.join(' ') || null,
    email: row.email,
  };
}

/** Hotel nights from the eve of the summit; requested twenty days ago, settled ten days ago. */
async function insertStays(db: Db, sample: SampleContext): Promise<void> {
  const date = (day: number) => at(sample, day).slice(0, 10);
  for (const s of stays)
    await db
      .insertInto('stays')
      .values({
        id: sample.id(`stay/summit/${s.key}`),
        ...ownedBy(sample),
        ...(await person(db, sample, s.who)),
        attendee_id: null,
        status: s.status,
        hotel: s.hotel ?? null,
        room: s.room ?? null,
        check_in_date: date(startDay - 1),
        check_out_date: date(startDay - 1 + s.nights),
        ...(await changeStamp(
          db,
          at(sample, -20),
          s.status === 'requested' ? at(sample, -20) : at(sample, -10),
        )),
      })
      .execute();
}

/** Journeys to Oslo on the eve of the summit, leaving at midnight UTC. */
async function insertJourneys(db: Db, sample: SampleContext): Promise<void> {
  for (const j of journeys)
    await db
      .insertInto('travel')
      .values({
        id: sample.id(`travel/summit/${j.key}`),
        ...ownedBy(sample),
        ...(await person(db, sample, j.who)),
        status: j.status,
        mode: j.mode,
        from_place: j.from,
        to_place: 'Oslo',
        departs_utc: at(sample, startDay - 1, 0),
        arrives_utc: at(sample, startDay - 1, j.hours),
        reference: `SMP${j.key.toUpperCase()}`,
        ...(await changeStamp(db, at(sample, -15), j.status === 'booked' ? at(sample, -15) : at(sample, -5))),
      })
      .execute();
}

/** Claims submitted three days ago, approved the day after, paid the day after that. */
async function insertClaims(db: Db, sample: SampleContext): Promise<void> {
  for (const c of claims) {
    const submitted = at(sample, -3);
    const approved = c.status === 'paid' || c.status === 'approved' ? at(sample, -2) : null;
    const paid = c.status === 'paid' ? at(sample, -1) : null;
    const settled = paid ?? approved ?? (c.status === 'rejected' ? at(sample, -2) : submitted);
    await db
      .insertInto('expense_claims')
      .values({
        id: sample.id(`claim/summit/${c.key}`),
        ...ownedBy(sample),
        ...(await person(db, sample, c.who)),
        category: c.category,
        amount_minor: c.amountMinor,
        currency: 'NOK',
        status: c.status,
        submitted_utc: submitted,
        approved_utc: approved,
        paid_utc: paid,
        ...(await changeStamp(db, submitted, settled)),
      })
      .execute();
  }
}
