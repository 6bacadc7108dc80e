// One limit on guessing ticket codes, shared by every place that takes one: the ticket's page and
// calendar file (/t/{code}, /t/{code}.ics), the page a registration ends on (/e/{slug}/registered,
// many codes at once), and the operations that take a code (check-in by code, offline scans, lead
// capture, survey answers). Each distinct code of a request that names no ticket is one miss.
//
// Who is counted: a page's visitor by their address; a call with a key by its key. A key is
// accountable (named, revocable, each call in its activity) and sees only its own workspace's
// tickets, while one venue's doors and its visitors' phones often share one address: counted per
// address, a busy door's honest misreads would pause every scanner and every visitor behind it, and
// a visitor's guessing would stop the doors. A key's limit fits one whole upload of offline scans
// (an upload over it could never go through), and still bounds what it can learn by guessing.
//
// Past the limit the subject is paused until its window ends: every look-up it asks is refused,
// found or not, so a refusal tells nothing about the codes sent. The count is shared by every
// process on a PostgreSQL database (rateCounterFor); each process remembers a pause it has seen.

import type { Db } from '../../db/connect';
import type { Actor } from './actor';
import { problem } from './problems';
import type { RateLimiter } from './storage/rate-counter';
import { rateCounterFor } from './storage/shared-rate-counter';

/** Codes that named no ticket, a minute, from one address before its look-ups pause. */
export const missesPerAddress = 30;
/** The same for one key (as many as one upload of offline scans holds). */
export const missesPerKey = 500;

/** Who guesses: a page's visitor by address, a caller by key. */
export type GuessSubject = { address: string } | { keyId: string };

export const subjectOfActor = (actor: Actor): GuessSubject => ({ keyId: actor.keyId });

/** Whether the look-ups may be answered; when not, how many seconds until they may. */
export type GuessDecision = { allowed: true } | { allowed: false; retryAfter: number };

export class TicketCodeGuesses {
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly counter: RateLimiter) {}

  /** Seconds the subject must still wait before any of its look-ups is answered; null: none. */
  pausedFor(subject: GuessSubject, now: Date): number | null {
    const key = keyOf(subject);
    const until = this.pausedUntil.get(key);
    if (until === undefined) return null;
    if (until <= now.getTime()) {
      this.pausedUntil.delete(key);
      return null;
    }
    return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
  }

  /**
   * Counts the misses of one request (each code that named no ticket) and answers whether its
   * look-ups may be answered: not when these misses went past the limit, nor while the subject is
   * paused (misses 0 asks only that).
   */
  async countMisses(subject: GuessSubject, misses: number, now: Date): Promise<GuessDecision> {
    const paused = this.pausedFor(subject, now);
    if (paused !== null) return { allowed: false, retryAfter: paused };
    if (misses === 0) return { allowed: true };
    const key = keyOf(subject);
    const decision = await this.counter.take(key, limitOf(subject), now, misses);
    // The limit reached: the next look-up, whatever it finds, waits for the window's end.
    if (decision.remaining === 0) {
      if (this.pausedUntil.size >= 10_000) this.forgetEnded(now);
      this.pausedUntil.set(key, now.getTime() + decision.resetSeconds * 1000);
    }
    return decision.allowed ? { allowed: true } : { allowed: false, retryAfter: decision.resetSeconds };
  }

  private forgetEnded(now: Date): void {
    for (const [key, until] of this.pausedUntil) if (until <= now.getTime()) this.pausedUntil.delete(key);
  }
}

/** The one limiter of a service (services.ticketGuesses): in memory on SQLite, shared on PostgreSQL. */
export function ticketCodeGuesses(db: Db): TicketCodeGuesses {
  return new TicketCodeGuesses(rateCounterFor(db, 'ticket-miss'));
}

/** The problem a paused caller is answered (REST 429 with Retry-After, an MCP tool error). */
export function guessesRefused(retryAfter: number) {
  return problem(
    'rateLimited',
    `Too many ticket codes that name no ticket; retry in ${retryAfter} seconds.`,
    { retryAfter },
  );
}

const keyOf = (subject: GuessSubject) =>
  'address' in subject ? `address:${subject.address}` : `key:${subject.keyId}`;

const limitOf = (subject: GuessSubject) => ('address' in subject ? missesPerAddress : missesPerKey);
