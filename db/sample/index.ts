// Sample data for the demonstration workspace and for `workspace create --sample`. Each area
// adds its own file here and one line to fillSampleData.

import { changingTables } from '../changing-tables';
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import { insertSampleAfterEvent } from './after-event';
import { insertSampleCfp } from './cfp';
import { insertSampleCommunities } from './communities';
import type { SampleContext } from './context';
import { insertSampleCrew } from './crew';
import { insertSampleDoors } from './doors';
import { insertSampleEvents, sampleEvents } from './events';
import { insertSampleFinance } from './finance';
import { sampleId } from './ids';
import { insertSampleLogistics } from './logistics';
import { insertSamplePasses } from './passes';
import { insertSampleProgramme } from './programme';
import { insertSampleSales } from './sales';
import { insertSampleSharekit } from './sharekit';
import { insertSampleSponsors } from './sponsors';
import { insertSampleSurveys } from './surveys';

export async function fillSampleData(
  db: Db,
  options: { workspaceId: string; now: Date; demonstration?: boolean },
): Promise<void> {
  const day0 = new Date(
    Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth(), options.now.getUTCDate()),
  );
  const sample: SampleContext = {
    workspaceId: options.workspaceId,
    slugSuffix: options.demonstration ? '' : `-${sampleId(options.workspaceId, 'slug').slice(0, 6)}`,
    day0,
    id: (name) => sampleId(options.workspaceId, name),
  };
  await insertSampleEvents(db, sample);
  await insertSampleSales(
    db,
    sample,
    new Map(sampleEvents.map((e) => [e.key, { currency: e.currency, language: e.languages[0]! }])),
  );
  await insertSampleProgramme(db, sample);
  // Sponsors after sales: their leads are visitors holding tickets.
  await insertSampleSponsors(db, sample);
  await insertSamplePasses(db, sample);
  // Crew after sales: one volunteer holds a crew ticket.
  await insertSampleCrew(db, sample);
  // Logistics after the programme and crew whose speakers and volunteers they name.
  await insertSampleLogistics(db, sample);
  await insertSampleCommunities(db, sample);
  // Call for speakers and share kit after the programme, sponsors and sales they point at.
  await insertSampleCfp(db, sample);
  await insertSampleSharekit(db, sample);
  await insertSampleSurveys(db, sample);
  // Finance after sales: invoices bill the paid orders, and ticket income is read from them.
  await insertSampleFinance(db, sample);
  // Doors last: a session door names its session, so the programme must be there first.
  await insertSampleDoors(db, sample);
  // After the doors: certificates go to those checked in.
  await insertSampleAfterEvent(db, sample);
  await orderChangesByTime(db, sample.workspaceId);
}

/**
 * The sample's rows are made area by area, each with times in the past: their change positions are
 * given again in the order of their updatedUtc, so "oldest change first" holds on the times a client
 * sees, as it does for changes made through the API.
 */
async function orderChangesByTime(db: Db, workspaceId: string): Promise<void> {
  const rows: { table: (typeof changingTables)[number]; id: string; updated: string; seq: number }[] = [];
  for (const table of changingTables) {
    const found =
      table === 'attendees'
        ? // No index leads with an attendee's workspace (migration 0042 dropped the e-mail's): by its events.
          await db
            .selectFrom('attendees')
            .select(['id', 'updated_utc', 'change_seq'])
            .where(
              'event_id',
              'in',
              db.selectFrom('events').select('id').where('workspace_id', '=', workspaceId),
            )
            .execute()
        : await db
            .selectFrom(table)
            .select(['id', 'updated_utc', 'change_seq'])
            .where('workspace_id', '=', workspaceId)
            .execute();
    for (const r of found) rows.push({ table, id: r.id, updated: r.updated_utc, seq: r.change_seq });
  }
  // Rows changed at the same moment keep the order they were made in.
  rows.sort((a, b) => (a.updated < b.updated ? -1 : a.updated > b.updated ? 1 : a.seq - b.seq));
  for (const row of rows) {
    await db
      .updateTable(row.table)
      .set({ change_seq: await nextChangeSeq(db) })
      .where('id', '=', row.id)
      .execute();
  }
}
