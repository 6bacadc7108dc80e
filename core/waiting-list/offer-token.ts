// The link of a waiting-list offer carries a random token; only its SHA-256 is kept (as an API key's
// secret is), so the database alone cannot take up someone's offer.
import { createHash, randomBytes } from 'node:crypto';

export function newOfferToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: offerTokenHash(token) };
}

export function offerTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token as the link carries it (32 base64url characters); anything else names no offer. */
export const isOfferToken = (token: string): boolean => /^[A-Za-z0-9_-]{32}$/.test(token);
