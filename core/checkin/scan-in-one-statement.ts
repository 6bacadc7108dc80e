// A door scan in one round trip on PostgreSQL: the rules of scanner.ts from the presence read to
// the first check-in, run by the server-side function tessera_scan_v2 (db/migrations/0036; v1 of
// 0035 stays for the previous version's processes), which says them in PL/pgSQL. An uncapped
// door's count goes to the connection's slot there (core/checkin/door-inside.ts). A scan of
// statements one after another paid a network round trip, a parse and a plan for each of about ten.
import { sql } from 'kysely';
import { prepare } from '../../db/prepared';
import type { Ctx } from '../platform/context';
import type { ScanResult } from './check-in-view';
import type { RecordedScan, ScanToRecord } from './scan-record';

type ScanArgs = {
  workspaceId: string;
  eventId: string;
  doorId: string;
  attendeeId: string;
  direction: 'in' | 'out';
  refusal: string | null;
  reentry: boolean;
  firstEntry: boolean;
  scannedUtc: string;
  offline: number;
  recordedUtc: string;
};

interface ScanAnswer {
  result: ScanResult;
  admitted: boolean;
  check_in_id: number;
  change_seq: number | null;
  door_disagrees: boolean;
}

const scanFunction = prepare<ScanArgs, ScanAnswer>(
  (_db, p) =>
    sql<ScanAnswer>`select result, admitted, check_in_id, change_seq, door_disagrees from tessera_scan_v2(${p.workspaceId}, ${p.eventId}, ${p.doorId},
      ${p.attendeeId}, ${p.direction}, ${p.refusal}, ${p.reentry}, ${p.firstEntry}, ${p.scannedUtc},
      ${p.offline}, ${p.recordedUtc})`,
);

/** Applies one scan on PostgreSQL; ctx.db must be the request's transaction. */
export async function scanInOneStatement(ctx: Ctx, scan: ScanToRecord): Promise<RecordedScan> {
  const answer = await scanFunction.first(ctx.db, {
    workspaceId: ctx.actor.workspaceId,
    eventId: scan.event.id,
    doorId: scan.door.id,
    attendeeId: scan.attendee.id,
    direction: scan.direction,
    refusal: scan.refusal,
    reentry: scan.door.reentry === 1,
    firstEntry: scan.firstEntry,
    scannedUtc: scan.scannedUtc,
    offline: scan.offline ? 1 : 0,
    recordedUtc: scan.recordedUtc,
  });
  if (!answer) throw new Error('the scan was not recorded');
  return {
    result: answer.result,
    admitted: answer.admitted,
    checkInId: answer.check_in_id,
    changeSeq: answer.change_seq,
    doorDisagrees: answer.door_disagrees,
  };
}
