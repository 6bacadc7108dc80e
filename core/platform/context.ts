// What a use case receives: the database (a transaction for writes), the clock, the caller, and
// the few request facts core needs (the public origin for links, the entity tag of a conditional write).
import type { Db } from '../../db/connect';
import type { Actor } from './actor';
import type { Clock } from './clock';
import type { Services } from './services';

export interface RequestFacts {
  /** https://host[:port] of the service as the public reaches it, for links such as the MCP address. */
  origin: string;
  /** The entity tag sent with a conditional write (REST If-Match, MCP ifMatch), when sent. */
  ifMatch?: string;
  /** The caller's User-Agent, for the few rules that name the calling platform. */
  userAgent?: string;
}

export interface Ctx {
  db: Db;
  clock: Clock;
  actor: Actor;
  services: Services;
  request: RequestFacts;
  /**
   * Ticket codes this call looked up that named no ticket (an operation declaring `ticketCodes`):
   * invoke counts them against the caller's guess limit once the call ends.
   */
  ticketMisses?: Set<string>;
  /**
   * A waiting-list offer this registration takes up (its public link, core/waiting-list): the offer
   * already holds one place of its type, so the registration takes that one instead of a new one.
   */
  waitingOffer?: { entryId: string; ticketTypeId: string };
}
