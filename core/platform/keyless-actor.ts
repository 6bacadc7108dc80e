// Callers that hold no key but act on a workspace through its operations: the public pages (a
// registration, a waiting list's join), Stripe's word at the webhook address, the schedule's jobs,
// the operator at the command line. One shape for all: named as the activity log shows them, with
// the scopes their work needs and no more, the service's own rate.
import type { Actor } from './actor';
import type { Ctx } from './context';
import { callContext } from './pipeline/call-operation';
import type { Scope } from './scopes';
import type { Services } from './services';

export interface KeylessCaller {
  workspaceId: string;
  /** As the activity log names it ("public sign-up page", "Stripe webhook"). */
  name: string;
  scopes: Scope[];
  workspaceName?: string;
  /** When the caller came to be (the event of a public page, the workspace of the operator). */
  createdUtc?: string;
  /** The demonstration workspace's public page: refused as the demonstration key is. */
  demonstration?: boolean;
  audience?: Actor['audience'];
  publicSignUp?: boolean;
  operator?: boolean;
}

export function keylessActor(services: Services, caller: KeylessCaller): Actor {
  return {
    workspaceId: caller.workspaceId,
    workspaceName: caller.workspaceName ?? '',
    demonstration: caller.demonstration ?? false,
    keyId: '',
    keyName: caller.name,
    keyPrefix: '',
    keyCreatedUtc: caller.createdUtc ?? new Date(0).toISOString(),
    expiresUtc: null,
    scopes: caller.scopes,
    legacy: false,
    ratePerMinute: services.defaultRatePerMinute,
    audience: caller.audience ?? 'rest',
    ...(caller.publicSignUp ? { publicSignUp: true } : {}),
    ...(caller.operator ? { operator: true } : {}),
  };
}

/** Where links made outside a request point: the public URL, else the default address of `npm start`. */
export function originOutsideRequests(services: Services): string {
  return services.publicOrigin ?? 'https://localhost:8443';
}

/** The context of a keyless caller: a request's origin, or the one links outside requests use. */
export function keylessContext(services: Services, caller: KeylessCaller, origin?: string): Ctx {
  return callContext(services, keylessActor(services, caller), {
    origin: origin ?? originOutsideRequests(services),
  });
}
