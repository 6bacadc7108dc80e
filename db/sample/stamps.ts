// Times and change stamps of sample rows: every time is relative to the day the data is made, and
// each row takes the next change position as it is made (fillSampleData orders them by time after).
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { SampleContext } from './context';

/** `days` from the sample's day (before it when negative) and `minutes` into that day, UTC, as stored. */
export function sampleUtc(sample: SampleContext, days: number, minutes = 0): string {
  return new Date(sample.day0.getTime() + days * 86_400_000 + minutes * 60_000).toISOString();
}

/** A row's created and updated times, with the next change position. */
export async function changeStamp(db: Db, created: string, updated = created) {
  return { created_utc: created, updated_utc: updated, change_seq: await nextChangeSeq(db) };
}
