// What a use case receives: the database (a transaction for writes), the clock, the caller, and
// the few request facts core needs (its origin for links, its preconditions).
import type { Db } from '../../db/connect';
import type { Actor } from './actor';
import type { Clock } from './clock';
import type { Services } from './services';

export interface RequestFacts {
  /** https://host[:port] the caller reached, for links such as the MCP address. */
  origin: string;
  /** The If-Match header of a conditional write, when sent. */
  ifMatch?: string;
}

export interface Ctx {
  db: Db;
  clock: Clock;
  actor: Actor;
  services: Services;
  request: RequestFacts;
}
