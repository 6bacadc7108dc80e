// The code of a certificate's public verification page (/v/{code}): 144 random bits, never derived
// from an id, so no one finds another's certificate by guessing. URL-safe as it is.
import { randomBytes } from 'node:crypto';

export const newVerificationCode = (): string => randomBytes(18).toString('base64url');

/** What a code looks like: 24 URL-safe characters (anything else is not looked up). */
export const verificationCodePattern = /^[A-Za-z0-9_-]{24}$/;
