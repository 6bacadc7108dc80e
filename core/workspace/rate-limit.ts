import type { Actor } from '../platform/actor';
import type { Services } from '../platform/services';

export function rateLimitOf(actor: Actor, services: Services) {
  return { perMinute: actor.ratePerMinute, windowSeconds: services.rate.windowSeconds };
}
