// The public form's rate limits: registrations one client address may send, and one e-mail address
// may be sent with per event, in ten minutes. A send the address's limit refuses takes nothing from
// its people's addresses. The refusal says where on the form it belongs and when to try again.
import type { FormError } from '../core/orders';
import type { Services } from '../core/platform/services';
import { rateCounterFor } from '../core/platform/storage/shared-rate-counter';

export interface SignUpLimits {
  /** Registrations one client address may send in ten minutes (TESSERA_SIGN_UP_ADDRESS_LIMIT). */
  signUpsPerAddress: number;
}

/** Registrations one e-mail address may be sent with, per event, in ten minutes. */
const perEmail = 5;
const windowSeconds = 600;

export interface RateRefusal {
  error: FormError;
  /** When the window that refused lets this send through again (Retry-After). */
  retryAfterSeconds: number;
}

/** The check of one send: null when every limit lets it through (and it is counted). */
export type SignUpRateCheck = (ip: string, eventId: string, emails: string[]) => Promise<RateRefusal | null>;

export function signUpRateLimits(services: Services, limits: SignUpLimits): SignUpRateCheck {
  const byAddress = rateCounterFor(services.db, 'sign-up-address', windowSeconds);
  const byEmail = rateCounterFor(services.db, 'sign-up-email', windowSeconds);
  return async (ip, eventId, emails) => {
    const now = services.clock.now();
    const address = await byAddress.take(ip, limits.signUpsPerAddress, now);
    const emailRefusals: { person: number; resetSeconds: number }[] = [];
    if (address.allowed) {
      const normal = emails.map((email) => email.trim().toLowerCase());
      for (const [person, email] of normal.entries()) {
        if (!email || normal.indexOf(email) !== person) continue;
        const taken = await byEmail.take(`${eventId}:${email}`, perEmail, now);
        if (!taken.allowed) emailRefusals.push({ person, resetSeconds: taken.resetSeconds });
      }
    }
    if (address.allowed && emailRefusals.length === 0) return null;
    services.metrics?.rateLimited(address.allowed ? 'signUpEmail' : 'signUpAddress');
    const message =
      'Too many registrations were sent from here or with this e-mail address; try again in ten minutes.';
    return {
      error: { field: address.allowed ? `person.${emailRefusals[0]!.person}.email` : 'ticketTypes', message },
      retryAfterSeconds: address.allowed
        ? Math.max(...emailRefusals.map((r) => r.resetSeconds))
        : address.resetSeconds,
    };
  };
}
