// Sample sponsors: three levels and six sponsors at the summit (one without a level), with leads its
// visitors asked for through the event app before the event (some not shared, so never listed; some
// shared without the email; one of the attendee who erased their data); booth leads at the past
// event; and sponsors at the meetup, whose sponsors and leads modules are switched off (moduleOff),
// kept for when they are switched on again.
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { LeadOrigin } from '../values';
import type { SampleContext } from './context';

interface LevelSpec {
  key: string;
  name: string;
  rank: number;
  colour: string;
  staff: number;
  tickets: number;
  /** Days after the event's end the leads may be exported; null: no lead download. */
  exportDays: number | null;
  codes: number;
  percent: number;
  page: boolean;
  screens: boolean;
  badges: boolean;
  session: boolean;
}

interface SponsorSpec {
  key: string;
  name: string;
  level: string | null;
  sortOrder: number;
  website: string | null;
  description: string | null;
  booth: string | null;
}

interface LeadSpec {
  sponsor: string;
  /** all: details and email; details: without the email; none: nothing shared (never listed). */
  share: 'all' | 'details' | 'none';
  /** The attendee who erased their data, instead of the next one in line. */
  erasedVisitor?: boolean;
  origin: LeadOrigin;
  rating: 1 | 2 | 3;
  /** Days from the sample's day, and minutes into that day (UTC). */
  day: number;
  minute: number;
  by: string;
  note?: string;
  answers?: Record<string, string>;
}

interface EventSponsors {
  event: string;
  levels: LevelSpec[];
  sponsors: SponsorSpec[];
  leads: LeadSpec[];
}

const plans: EventSponsors[] = [
  {
    event: 'summit',
    levels: [
      {
        key: 'gold',
        name: 'Gold',
        rank: 3,
        colour: '#c9a227',
        staff: 6,
        tickets: 4,
        exportDays: 30,
        codes: 2,
        percent: 20,
        page: true,
        screens: true,
        badges: true,
        session: true,
      },
      {
        key: 'silver',
        name: 'Silver',
        rank: 2,
        colour: '#8a9ba8',
        staff: 3,
        tickets: 2,
        exportDays: 14,
        codes: 1,
        percent: 10,
        page: true,
        screens: true,
        badges: false,
        session: false,
      },
      {
        key: 'community',
        name: 'Community partner',
        rank: 1,
        colour: '#2f9e44',
        staff: 1,
        tickets: 1,
        exportDays: null,
        codes: 0,
        percent: 0,
        page: true,
        screens: false,
        badges: false,
        session: false,
      },
    ],
    sponsors: [
      {
        key: 'northwind',
        name: 'Northwind AS',
        level: 'gold',
        sortOrder: 2,
        website: 'https://northwind.example.com',
        description: 'Payments and invoicing for Nordic software companies.',
        booth: 'A2',
      },
      {
        key: 'fjord',
        name: 'Fjord Labs',
        level: 'gold',
        sortOrder: 1,
        website: 'https://fjordlabs.example.com',
        description: 'Product analytics that respects privacy.',
        booth: 'A1',
      },
      {
        key: 'polar',
        name: 'Polar Data',
        level: 'silver',
        sortOrder: 1,
        website: 'https://polardata.example.com',
        description: 'Data pipelines without the plumbing.',
        booth: 'B4',
      },
      {
        key: 'lumen',
        name: 'Lumen Studio',
        level: 'silver',
        sortOrder: 2,
        website: 'https://lumen.example.com',
        description: 'Design systems studio.',
        booth: 'B5',
      },
      {
        key: 'guild',
        name: 'Oslo Product Guild',
        level: 'community',
        sortOrder: 1,
        website: null,
        description: 'Monthly meetups for product people in Oslo.',
        booth: null,
      },
      {
        key: 'coffee',
        name: 'Kaffebrenneriet',
        level: null,
        sortOrder: 1,
        website: 'https://kaffe.example.com',
        description: 'Coffee on both days.',
        booth: 'Foyer',
      },
    ],
    leads: [
      {
        sponsor: 'fjord',
        share: 'all',
        origin: 'request',
        rating: 3,
        day: -14,
        minute: 600,
        by: 'Marte Berg',
        note: 'Wants a demo of the analytics add-on.',
        answers: { interest: 'analytics', timeline: 'thisQuarter' },
      },
      {
        sponsor: 'fjord',
        share: 'details',
        origin: 'request',
        rating: 2,
        day: -12,
        minute: 540,
        by: 'Marte Berg',
      },
      {
        sponsor: 'fjord',
        share: 'none',
        origin: 'request',
        rating: 1,
        day: -11,
        minute: 720,
        by: 'Marte Berg',
      },
      {
        sponsor: 'northwind',
        share: 'all',
        origin: 'request',
        rating: 2,
        day: -10,
        minute: 610,
        by: 'Jonas Lie',
        answers: { interest: 'invoicing' },
      },
      {
        sponsor: 'northwind',
        share: 'all',
        origin: 'request',
        rating: 3,
        day: -9,
        minute: 830,
        by: 'Jonas Lie',
        note: 'Migrating from spreadsheets; call after the summit.',
        answers: { interest: 'integrations', timeline: 'nextQuarter' },
      },
      {
        sponsor: 'northwind',
        share: 'none',
        origin: 'request',
        rating: 2,
        day: -8,
        minute: 900,
        by: 'Jonas Lie',
      },
      {
        sponsor: 'polar',
        share: 'details',
        origin: 'request',
        rating: 1,
        day: -7,
        minute: 480,
        by: 'Aiko Sato',
      },
      {
        sponsor: 'polar',
        share: 'all',
        origin: 'request',
        rating: 2,
        day: -6,
        minute: 700,
        by: 'Aiko Sato',
        note: 'Asked for the pipeline white paper.',
      },
      {
        sponsor: 'lumen',
        share: 'all',
        origin: 'request',
        rating: 3,
        day: -5,
        minute: 660,
        by: 'Chloé Martin',
      },
      {
        sponsor: 'lumen',
        share: 'none',
        origin: 'request',
        rating: 1,
        day: -4,
        minute: 750,
        by: 'Chloé Martin',
      },
      {
        sponsor: 'fjord',
        share: 'all',
        erasedVisitor: true,
        origin: 'request',
        rating: 2,
        day: -3,
        minute: 640,
        by: 'Marte Berg',
        note: 'Follow up about the team plan.',
      },
      {
        sponsor: 'polar',
        share: 'all',
        origin: 'request',
        rating: 2,
        day: -2,
        minute: 560,
        by: 'Aiko Sato',
        answers: { interest: 'streaming' },
      },
    ],
  },
  {
    event: 'past',
    levels: [
      {
        key: 'partner',
        name: 'Partner',
        rank: 2,
        colour: '#e8590c',
        staff: 4,
        tickets: 3,
        exportDays: 60,
        codes: 1,
        percent: 15,
        page: true,
        screens: true,
        badges: true,
        session: true,
      },
      {
        key: 'supporter',
        name: 'Supporter',
        rank: 1,
        colour: '#1c7ed6',
        staff: 2,
        tickets: 1,
        exportDays: 30,
        codes: 0,
        percent: 0,
        page: true,
        screens: false,
        badges: false,
        session: false,
      },
    ],
    sponsors: [
      {
        key: 'atlantico',
        name: 'Atlântico Design',
        level: 'partner',
        sortOrder: 1,
        website: 'https://atlantico.example.com',
        description: 'Brand and interface design from Lisbon.',
        booth: 'P1',
      },
      {
        key: 'kitsune',
        name: 'Kitsune Works',
        level: 'supporter',
        sortOrder: 1,
        website: 'https://kitsune.example.com',
        description: null,
        booth: 'S3',
      },
      {
        key: 'lumen',
        name: 'Lumen Studio',
        level: 'supporter',
        sortOrder: 2,
        website: 'https://lumen.example.com',
        description: 'Design systems studio.',
        booth: 'S4',
      },
    ],
    leads: [
      {
        sponsor: 'atlantico',
        share: 'all',
        origin: 'booth',
        rating: 3,
        day: -30,
        minute: 620,
        by: 'Rita Costa',
        note: 'Rebrand next spring.',
      },
      {
        sponsor: 'atlantico',
        share: 'all',
        origin: 'booth',
        rating: 2,
        day: -30,
        minute: 700,
        by: 'Rita Costa',
      },
      {
        sponsor: 'atlantico',
        share: 'none',
        origin: 'booth',
        rating: 1,
        day: -29,
        minute: 640,
        by: 'Rita Costa',
      },
      {
        sponsor: 'kitsune',
        share: 'details',
        origin: 'booth',
        rating: 2,
        day: -29,
        minute: 760,
        by: 'Kenji Mori',
      },
      {
        sponsor: 'lumen',
        share: 'all',
        origin: 'booth',
        rating: 1,
        day: -28,
        minute: 600,
        by: 'Chloé Martin',
      },
      {
        sponsor: 'lumen',
        share: 'all',
        origin: 'booth',
        rating: 3,
        day: -28,
        minute: 820,
        by: 'Chloé Martin',
      },
    ],
  },
  {
    event: 'meetup',
    levels: [
      {
        key: 'partner',
        name: 'Partner',
        rank: 1,
        colour: '#f03e3e',
        staff: 2,
        tickets: 2,
        exportDays: null,
        codes: 0,
        percent: 0,
        page: true,
        screens: true,
        badges: false,
        session: false,
      },
    ],
    sponsors: [
      {
        key: 'sakura',
        name: 'Sakura Systems',
        level: 'partner',
        sortOrder: 1,
        website: 'https://sakura.example.com',
        description: 'Pizza and drinks.',
        booth: null,
      },
      {
        key: 'kitsune',
        name: 'Kitsune Works',
        level: 'partner',
        sortOrder: 2,
        website: 'https://kitsune.example.com',
        description: 'The venue.',
        booth: null,
      },
    ],
    leads: [],
  },
];

export async function insertSampleSponsors(db: Db, sample: SampleContext): Promise<void> {
  const at = (day: number, minutes: number) =>
    new Date(sample.day0.getTime() + day * 86_400_000 + minutes * 60_000).toISOString();
  const created = at(-50, 10 * 60);
  const stamp = async () => ({
    created_utc: created,
    updated_utc: created,
    change_seq: await nextChangeSeq(db),
  });

  for (const plan of plans) {
    const eventId = sample.id(`event/${plan.event}`);
    const owned = { workspace_id: sample.workspaceId, event_id: eventId };
    const event = await db
      .selectFrom('events')
      .select('ends_utc')
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    const levelId = (key: string) => sample.id(`sponsor-level/${plan.event}/${key}`);
    const sponsorId = (key: string) => sample.id(`sponsor/${plan.event}/${key}`);
    for (const l of plan.levels) {
      await db
        .insertInto('sponsor_levels')
        .values({
          id: levelId(l.key),
          ...owned,
          name: l.name,
          rank: l.rank,
          colour: l.colour,
          staff_allowance: l.staff,
          free_tickets: l.tickets,
          lead_download: l.exportDays === null ? 0 : 1,
          lead_export_until:
            l.exportDays === null
              ? null
              : new Date(Date.parse(event.ends_utc) + l.exportDays * 86_400_000).toISOString().slice(0, 10),
          discount_codes: l.codes,
          discount_percent: l.percent,
          logo_on_page: l.page ? 1 : 0,
          logo_on_screens: l.screens ? 1 : 0,
          logo_on_badges: l.badges ? 1 : 0,
          sponsored_session: l.session ? 1 : 0,
          ...(await stamp()),
        })
        .execute();
    }
    for (const s of plan.sponsors) {
      await db
        .insertInto('sponsors')
        .values({
          id: sponsorId(s.key),
          ...owned,
          level_id: s.level ? levelId(s.level) : null,
          name: s.name,
          website: s.website,
          logo_url: s.website ? `${s.website}/logo.png` : null,
          description: s.description,
          booth: s.booth,
          sort_order: s.sortOrder,
          ...(await stamp()),
        })
        .execute();
    }
    if (plan.leads.length === 0) continue;

    // Visitors in a fixed order: the event's active tickets made before the first lead, oldest first.
    const firstCapture = Math.min(...plan.leads.map((l) => l.day * 1440 + l.minute));
    const visitors = await db
      .selectFrom('attendees')
      .select(['id', 'first_name', 'last_name', 'company', 'job_title', 'email'])
      .where('event_id', '=', eventId)
      .where('status', '=', 'active')
      .where('erased', '=', 0)
      .where('created_utc', '<', at(0, firstCapture))
      .orderBy('created_utc')
      .orderBy('id')
      .limit(plan.leads.length)
      .execute();
    const erasedVisitor = await db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', eventId)
      .where('erased', '=', 1)
      .orderBy('id')
      .executeTakeFirst();
    for (const [n, lead] of plan.leads.entries()) {
      const capturedUtc = at(lead.day, lead.minute);
      const common = {
        id: sample.id(`lead/${plan.event}/${n}`),
        ...owned,
        sponsor_id: sponsorId(lead.sponsor),
        origin: lead.origin,
        rating: lead.rating,
        note: lead.note ?? null,
        captured_by: lead.by,
        captured_utc: capturedUtc,
        attended_session_id: null,
        created_utc: capturedUtc,
        change_seq: await nextChangeSeq(db),
      };
      if (lead.erasedVisitor) {
        // Shared, then erased with the visitor: nothing personal is left, the note included.
        await db
          .insertInto('leads')
          .values({
            ...common,
            attendee_id: erasedVisitor?.id ?? null,
            shared: 1,
            email_shared: 1,
            first_name: null,
            last_name: null,
            company: null,
            job_title: null,
            email: null,
            answers: null,
            note: null,
            erased: 1,
            updated_utc: at(-1, 9 * 60),
          })
          .execute();
        continue;
      }
      const visitor = visitors[n]!;
      const shared = lead.share !== 'none';
      await db
        .insertInto('leads')
        .values({
          ...common,
          attendee_id: visitor.id,
          shared: shared ? 1 : 0,
          email_shared: lead.share === 'all' ? 1 : 0,
          first_name: shared ? visitor.first_name : null,
          last_name: shared ? visitor.last_name : null,
          company: shared ? visitor.company : null,
          job_title: shared ? visitor.job_title : null,
          email: lead.share === 'all' ? visitor.email : null,
          answers: shared ? JSON.stringify(lead.answers ?? {}) : null,
          erased: 0,
          updated_utc: capturedUtc,
        })
        .execute();
    }
  }
}
