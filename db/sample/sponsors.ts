// Sample sponsors: three levels and six sponsors at the summit (one without a level), with leads its
// visitors asked for through the event app before the event (some not shared, so never listed; some
// shared without the email; one of the attendee who erased their data); booth leads at the past
// event; and sponsors at the meetup, whose sponsors and leads modules are switched off (moduleOff),
// kept for when they are switched on again.
import type { Db } from '../connect';
import type { SampleContext } from './context';
import { insertSampleLeads, type LeadSpec } from './sponsor-leads';
import { changeStamp, sampleUtc } from './stamps';

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
  for (const plan of plans) {
    await insertSponsorLevels(db, sample, plan);
    await insertSponsors(db, sample, plan);
    // Leads last: their visitors hold tickets, and they name the sponsors.
    await insertSampleLeads(db, sample, plan.event, plan.leads);
  }
}

/** Levels and sponsors were set up fifty days ago. */
const setUpStamp = (db: Db, sample: SampleContext) => changeStamp(db, sampleUtc(sample, -50, 10 * 60));

/** The event's sponsor levels; leads may be exported for some days after the event ends. */
async function insertSponsorLevels(db: Db, sample: SampleContext, plan: EventSponsors): Promise<void> {
  const eventId = sample.id(`event/${plan.event}`);
  const event = await db
    .selectFrom('events')
    .select('ends_utc')
    .where('id', '=', eventId)
    .executeTakeFirstOrThrow();
  const exportUntil = (days: number) =>
    new Date(Date.parse(event.ends_utc) + days * 86_400_000).toISOString().slice(0, 10);
  for (const l of plan.levels) {
    await db
      .insertInto('sponsor_levels')
      .values({
        id: sample.id(`sponsor-level/${plan.event}/${l.key}`),
        workspace_id: sample.workspaceId,
        event_id: eventId,
        name: l.name,
        rank: l.rank,
        colour: l.colour,
        staff_allowance: l.staff,
        free_tickets: l.tickets,
        lead_download: l.exportDays === null ? 0 : 1,
        lead_export_until: l.exportDays === null ? null : exportUntil(l.exportDays),
        discount_codes: l.codes,
        discount_percent: l.percent,
        logo_on_page: l.page ? 1 : 0,
        logo_on_screens: l.screens ? 1 : 0,
        logo_on_badges: l.badges ? 1 : 0,
        sponsored_session: l.session ? 1 : 0,
        ...(await setUpStamp(db, sample)),
      })
      .execute();
  }
}

async function insertSponsors(db: Db, sample: SampleContext, plan: EventSponsors): Promise<void> {
  for (const s of plan.sponsors) {
    await db
      .insertInto('sponsors')
      .values({
        id: sample.id(`sponsor/${plan.event}/${s.key}`),
        workspace_id: sample.workspaceId,
        event_id: sample.id(`event/${plan.event}`),
        level_id: s.level ? sample.id(`sponsor-level/${plan.event}/${s.level}`) : null,
        name: s.name,
        website: s.website,
        logo_url: s.website ? `${s.website}/logo.png` : null,
        description: s.description,
        booth: s.booth,
        sort_order: s.sortOrder,
        ...(await setUpStamp(db, sample)),
      })
      .execute();
  }
}
