// What one scan carries from the rules' caller to the code that records it, on either store: the
// scan as read, with what the rules need besides the locked rows, and what recording it gave.
import type { DoorRow, EventRow } from '../../db/schema';
import type { AttendeeJoinedRow } from '../attendees';
import type { ScanResult } from './check-in-view';

export interface Scan {
  direction: 'in' | 'out';
  scannedUtc: string;
  offline: boolean;
}

export type Refusal = Extract<ScanResult, 'cancelled' | 'unpaid' | 'notOnList' | 'noAddOn'>;

/** A scan with what the rules need besides the locked rows (presence, the door's count). */
export interface ScanToRecord extends Scan {
  event: EventRow;
  door: DoorRow;
  attendee: AttendeeJoinedRow;
  recordedUtc: string;
  /** The refusal that needs no lock, for a scan going in. */
  refusal: Refusal | null;
  /** An admission here would be the attendee's earliest at the main entrance. */
  firstEntry: boolean;
}

export interface RecordedScan {
  result: ScanResult;
  admitted: boolean;
  checkInId: number;
  /** The attendee's new change position when the scan set their first check-in. */
  changeSeq: number | null;
  /** A place was given back at a door already at zero inside (logged). */
  doorDisagrees: boolean;
}
