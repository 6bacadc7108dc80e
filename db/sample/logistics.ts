// Sample logistics and expense claims at the summit (made after the programme and the crew they
// name): stays of two speakers (one assigned to a hotel, one requested) and a volunteer's cancelled
// one; a speaker's flight and a volunteer's cancelled train; a speaker's claim paid, another's
// submitted and a volunteer's declined. Names and email are copied from the linked person, as the
// API copies them.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { ClaimStatus, StayStatus, TravelMode, TravelStatus } from '../values';
import type { SampleContext } from './context';

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
  const eventId = sample.id('event/summit');
  const startDay = 45;
  const at = (day: number, hours = 9) =>
    new Date(sample.day0.getTime() + day * 86_400_000 + hours * 3_600_000).toISOString();
  const date = (day: number) => at(day).slice(0, 10);
  const owned = { workspace_id: sample.workspaceId, event_id: eventId, erased: 0 as const };
  /** The link and the copied names and email of a speaker or volunteer of the summit. */
  const person = async (who: Who) => {
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
  };
  const stamp = async (created: string, updated = created) => ({
    created_utc: created,
    updated_utc: updated,
    change_seq: await nextChangeSeq(db),
  });

  for (const s of stays)
    await db
      .insertInto('stays')
      .values({
        id: sample.id(`stay/summit/${s.key}`),
        ...owned,
        ...(await person(s.who)),
        attendee_id: null,
        status: s.status,
        hotel: s.hotel ?? null,
        room: s.room ?? null,
        check_in_date: date(startDay - 1),
        check_out_date: date(startDay - 1 + s.nights),
        ...(await stamp(at(-20), s.status === 'requested' ? at(-20) : at(-10))),
      })
      .execute();
  for (const j of journeys)
    await db
      .insertInto('travel')
      .values({
        id: sample.id(`travel/summit/${j.key}`),
        ...owned,
        ...(await person(j.who)),
        status: j.status,
        mode: j.mode,
        from_place: j.from,
        to_place: 'Oslo',
        departs_utc: at(startDay - 1, 0),
        arrives_utc: at(startDay - 1, j.hours),
        reference: `SMP${j.key.toUpperCase()}`,
        ...(await stamp(at(-15), j.status === 'booked' ? at(-15) : at(-5))),
      })
      .execute();
  for (const c of claims) {
    const submitted = at(-3);
    const approved = c.status === 'paid' || c.status === 'approved' ? at(-2) : null;
    const paid = c.status === 'paid' ? at(-1) : null;
    await db
      .insertInto('expense_claims')
      .values({
        id: sample.id(`claim/summit/${c.key}`),
        ...owned,
        ...(await person(c.who)),
        category: c.category,
        amount_minor: c.amountMinor,
        currency: 'NOK',
        status: c.status,
        submitted_utc: submitted,
        approved_utc: approved,
        paid_utc: paid,
        ...(await stamp(submitted, paid ?? approved ?? (c.status === 'rejected' ? at(-2) : submitted))),
      })
      .execute();
  }
}
