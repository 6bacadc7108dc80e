// API key format: abk_ + 12-character prefix + _ + 43-character secret. Only a hash of the secret is kept.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** How every API key starts (what a page tells a person pasting one). */
export const keyMarker = 'abk_';
const prefixLength = 12;
const secretLength = 43;
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const keyPattern = /^abk_([A-Za-z0-9]{12})_([A-Za-z0-9]{43})$/;

function randomText(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[randomInt(alphabet.length)];
  return text;
}

export interface GeneratedKey {
  /** The whole key, shown once. */
  key: string;
  /** The marker plus the twelve characters, as lists show it. */
  prefix: string;
  secretHash: string;
}

export function generateKey(): GeneratedKey {
  return keyFromParts(randomText(prefixLength), randomText(secretLength));
}

export function keyFromParts(prefixChars: string, secret: string): GeneratedKey {
  const key = `${keyMarker}${prefixChars}_${secret}`;
  if (!keyPattern.test(key)) throw new Error('A key needs a 12-character prefix and a 43-character secret.');
  return { key, prefix: `${keyMarker}${prefixChars}`, secretHash: hashSecret(secret) };
}

export function parseKey(token: string): { prefix: string; secret: string } | null {
  const match = keyPattern.exec(token);
  if (!match) return null;
  return { prefix: `${keyMarker}${match[1]}`, secret: match[2]! };
}

/** Text fit to print: every API key in it cut to its prefix, its secret left out. */
export function maskKeys(text: string): string {
  return text.replace(/\b(abk_[A-Za-z0-9]{12})_[A-Za-z0-9]+/g, '$1_…');
}

/** The digest a key's secret is kept as (hex in the database). */
function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function hashSecret(secret: string): string {
  return secretDigest(secret).toString('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = secretDigest(secret);
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
