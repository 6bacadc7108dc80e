import type { Problem } from './problems';
import type { Scope } from './scopes';

/** Who is calling: resolved once per request by the token verifier, the same for REST and MCP. */
export interface Actor {
  workspaceId: string;
  workspaceName: string;
  demonstration: boolean;
  keyId: string;
  keyName: string;
  keyPrefix: string;
  keyCreatedUtc: string;
  expiresUtc: string | null;
  scopes: Scope[];
  /** Made before per-area scopes existed (its scopes were rewritten). */
  legacy: boolean;
  ratePerMinute: number;
  /** API keys reach both resources; assistant sign-in tokens are bound to one. */
  audience: 'any' | 'rest' | 'mcp';
  /** The operator at the command line (no key): the only caller of operations marked `operator`. */
  operator?: boolean;
  /** The public registration form of an event's page (no key): required questions apply, its orders are the public's. */
  publicSignUp?: boolean;
}

/** What a credential turned out to be: the caller, or the problem to answer (with the key it named). */
export type Verification =
  | { ok: true; actor: Actor }
  | { ok: false; problem: Problem; key?: { keyId: string; workspaceId: string } };
