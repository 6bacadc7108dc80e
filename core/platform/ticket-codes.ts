// Ticket codes (their format: db/ticket-codes.ts) as scanners read them.
import { ticketCodePattern } from '../../db/ticket-codes';

export { newTicketCode, ticketCodeAt, ticketCodeLength } from '../../db/ticket-codes';

/** A ticket's page, absolute on the service's public origin: what its QR code holds. */
export const ticketUrl = (origin: string, code: string): string => `${origin}/t/${code}`;

/**
 * The code in what a scanner read: the code itself (any case, spaces and dashes ignored) or a
 * ticket's address ending in /t/{code}. Null when it holds no code.
 */
export function ticketCodeIn(scanned: string): string | null {
  const text = scanned.trim();
  const fromAddress = /\/t\/([A-Za-z2-7]{26})(?:[/?#.].*)?$/.exec(text);
  const code = (fromAddress ? fromAddress[1]! : text.replace(/[\s-]/g, '')).toUpperCase();
  return ticketCodePattern.test(code) ? code : null;
}
