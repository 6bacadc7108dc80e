// Sample data for the demonstration workspace and for `workspace create --sample`. Each area
// adds its own file here and one line to fillSampleData.
import type { Db } from '../connect';
import { insertSampleDoors } from './doors';
import { insertSampleEvents, sampleEvents } from './events';
import { sampleId } from './ids';
import { insertSamplePasses } from './passes';
import { insertSampleProgramme } from './programme';
import { insertSampleSales } from './sales';

export interface SampleContext {
  workspaceId: string;
  /** Midnight UTC of the day the data is made; every date is relative to it. */
  day0: Date;
  id(name: string): string;
}

export async function fillSampleData(db: Db, options: { workspaceId: string; now: Date }): Promise<void> {
  const day0 = new Date(
    Date.UTC(options.now.getUTCFullYear(), options.now.getUTCMonth(), options.now.getUTCDate()),
  );
  const sample: SampleContext = {
    workspaceId: options.workspaceId,
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
  await insertSamplePasses(db, sample);
  // Doors last: a session door names its session, so the programme must be there first.
  await insertSampleDoors(db, sample);
}
