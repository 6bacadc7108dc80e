// A change of a row ("send only what changes") writes the row back whole: what it was not sent it
// writes as it read it. Two changes of different fields of one row at once on PostgreSQL then lost
// one: the later wrote back, from its read, the field the earlier had changed. Each of these changes
// now reads its row locked for the change (db/dialect.ts changingRow, RowLock 'change'), so a second
// waits and reads the first's. Here one change is held once it has read while the other runs to its
// end; both fields are kept. Without the lock the held one wrote back the other's field as it was.
// SQLite writes one call at a time (its reads and writes together), so there they run in turn.
import { describe, expect, it } from 'vitest';
import { createSubmission } from '../../core/cfp/create-submission';
import { updateSubmission } from '../../core/cfp/update-submission';
import { createCommunity } from '../../core/communities/create-community';
import { updateCommunity } from '../../core/communities/update-community';
import { createEvent } from '../../core/events/create-event';
import { createBudgetLine } from '../../core/finance/create-budget-line';
import { updateBudgetLine } from '../../core/finance/update-budget-line';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { createTrack } from '../../core/programme/create-track';
import { publishContent } from '../../core/programme/publish-content';
import { updateContent } from '../../core/programme/update-content';
import { updateTrack } from '../../core/programme/update-track';
import { createSponsor } from '../../core/sponsors/create-sponsor';
import { createSponsorLevel } from '../../core/sponsors/create-sponsor-level';
import { updateSponsor } from '../../core/sponsors/update-sponsor';
import { updateSponsorLevel } from '../../core/sponsors/update-sponsor-level';
import { createWebhook } from '../../core/webhooks/endpoints/create-webhook';
import { updateWebhook } from '../../core/webhooks/endpoints/update-webhook';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, heldOrInTurn, db } = raceHarness('Patch beside patch');

interface Case {
  row: string;
  table: string;
  /** Makes the row; answers its id and the fields naming it in a change. */
  make(eventId: string): Promise<{ id: string; names: Record<string, unknown> }>;
  update: AnyOperation;
  /** Two changes of different fields, and the columns they set, as written. */
  first: Record<string, unknown>;
  second: Record<string, unknown>;
  columns: Record<string, unknown>;
}

let made = 0;
const cases: Case[] = [
  {
    row: 'track',
    table: 'tracks',
    make: async (eventId) => {
      const { trackId } = await call(createTrack, { eventId, name: 'Data', colour: '#112233' });
      return { id: trackId, names: { eventId, trackId } };
    },
    update: updateTrack,
    first: { name: 'Data & AI' },
    second: { colour: '#445566' },
    columns: { name: 'Data & AI', colour: '#445566' },
  },
  {
    row: 'sponsor',
    table: 'sponsors',
    make: async (eventId) => {
      const { sponsorId } = await call(createSponsor, { eventId, name: 'Booth' });
      return { id: sponsorId, names: { eventId, sponsorId } };
    },
    update: updateSponsor,
    first: { name: 'Big booth' },
    second: { booth: 'B12' },
    columns: { name: 'Big booth', booth: 'B12' },
  },
  {
    row: 'sponsor level',
    table: 'sponsor_levels',
    make: async (eventId) => {
      const { levelId } = await call(createSponsorLevel, {
        eventId,
        name: 'Gold',
        rank: 1,
        colour: '#ffd700',
      });
      return { id: levelId, names: { eventId, levelId } };
    },
    update: updateSponsorLevel,
    first: { name: 'Platinum' },
    second: { colour: '#e5e4e2' },
    columns: { name: 'Platinum', colour: '#e5e4e2' },
  },
  {
    row: 'community',
    table: 'communities',
    make: async () => {
      made += 1;
      const { communityId } = await call(createCommunity, {
        slug: `patch-race-${made}-${Date.now()}`,
        name: 'Racers',
        timeZone: 'UTC',
      });
      return { id: communityId, names: { communityId } };
    },
    update: updateCommunity,
    first: { name: 'Fast racers' },
    second: { city: 'Ghent' },
    columns: { name: 'Fast racers', city: 'Ghent' },
  },
  {
    row: 'webhook endpoint',
    table: 'webhooks',
    make: async () => {
      const { webhook } = await call(createWebhook, {
        url: 'https://receiver.example/patch-race',
        eventTypes: ['attendee.registered'],
      });
      return { id: webhook.webhookId, names: { webhookId: webhook.webhookId } };
    },
    update: updateWebhook,
    first: { description: 'CRM' },
    second: { url: 'https://receiver.example/patch-race-2' },
    columns: { description: 'CRM', url: 'https://receiver.example/patch-race-2' },
  },
  {
    row: 'budget line',
    table: 'budget_lines',
    make: async (eventId) => {
      const { lineId } = await call(createBudgetLine, {
        eventId,
        category: 'venue',
        name: 'Hall',
        kind: 'cost',
        budgeted: 100,
      });
      return { id: lineId, names: { eventId, lineId } };
    },
    update: updateBudgetLine,
    first: { name: 'Main hall' },
    second: { category: 'rooms' },
    columns: { name: 'Main hall', category: 'rooms' },
  },
  {
    row: 'published content',
    table: 'published_content',
    make: async (eventId) => {
      const { contentId } = await call(publishContent, {
        eventId,
        kind: 'slides',
        title: 'Slides',
        url: 'https://example.org/slides.pdf',
      });
      return { id: contentId, names: { eventId, contentId } };
    },
    update: updateContent,
    first: { title: 'The slides' },
    second: { url: 'https://example.org/slides-2.pdf' },
    columns: { title: 'The slides', url: 'https://example.org/slides-2.pdf' },
  },
  {
    row: 'submission',
    table: 'submissions',
    make: async (eventId) => {
      const { submissionId } = await call(createSubmission, {
        eventId,
        title: 'Locks',
        abstract: 'Two writers, one row.',
        format: 'talk',
        language: 'en',
        speakers: [{ name: 'Ada', email: 'ada@example.org' }],
      });
      return { id: submissionId, names: { eventId, submissionId } };
    },
    update: updateSubmission,
    first: { title: 'Locks, in order' },
    second: { abstract: 'Two writers, one row, both kept.' },
    columns: { title: 'Locks, in order', abstract: 'Two writers, one row, both kept.' },
  },
];

describe('two changes of different fields of one row at once', () => {
  it.each(cases)('$row: both are kept', async ({ table, make, update, first, second, columns }) => {
    const { eventId } = await call(createEvent, eventBody());
    const { id, names } = await make(eventId);
    const [held, other] = await heldOrInTurn(
      [update, { ...names, ...first }],
      [update, { ...names, ...second }],
    );
    expect(typeof held, `the held change answered ${JSON.stringify(held)}`).toBe('object');
    expect(typeof other, `the other change answered ${JSON.stringify(other)}`).toBe('object');
    const row = await db()
      .selectFrom(table as 'tracks')
      .select(Object.keys(columns) as 'name'[])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual(columns);
  });
});
