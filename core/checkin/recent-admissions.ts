// People let in since a time, each once per door (a repeat scan is not another person): the
// summary's "last hour". The index check_ins_event_scanned (migration 0033) bounds the read to
// those scans, so its cost follows the hour's traffic, not the event's size.

import type { Db } from '../../db/connect';
import { admittedResults } from './check-in-view';

export function recentAdmissions(db: Db, eventId: string, sinceUtc: string) {
  return db
    .selectFrom('check_ins')
    .innerJoin('doors', 'doors.id', 'check_ins.door_id')
    .select(['check_ins.door_id', 'check_ins.attendee_id', 'doors.kind'])
    .distinct()
    .where('check_ins.event_id', '=', eventId)
    .where('check_ins.result', 'in', [...admittedResults])
    .where('check_ins.scanned_utc', '>=', sinceUtc);
}
