// One call of an operation from outside (a REST request, an MCP tool call): the call context, the
// idempotency request and the entity tag around invoke, the same for every transport. Each
// transport keeps only its mapping: REST reads headers and answers with headers and 304, MCP reads
// arguments and answers with _meta.
import type { Actor } from '../actor';
import type { Ctx } from '../context';
import type { Services } from '../services';
import { isDocumentFile } from './document-file';
import { etagOf, tagListMatches } from './etag';
import { invoke } from './invoke';
import type { AnyOperation } from './operation';
import { isTableFile } from './table-file';

/** What a transport read of the call besides its input. */
export interface CallRequest {
  /** https://host[:port] of the service as the public reaches it, for links. */
  origin: string;
  userAgent?: string;
  /** The entity tag a conditional write is sent with (REST If-Match, MCP ifMatch). */
  ifMatch?: string;
  /** The entity tags the caller holds (REST If-None-Match): a read still matching one is not sent. */
  ifNoneMatch?: string;
  /** The caller's idempotency key (REST Idempotency-Key, MCP idempotencyKey). */
  idempotencyKey?: string;
  /** What names the call for its idempotency key: REST's method and path, MCP and the tool's name. */
  callName: { method: string; path: string };
  /** Top-level input fields that came from a JSON body (a wrong type there is invalidBody). */
  bodyFields: ReadonlySet<string>;
}

export interface CallAnswer {
  data: unknown;
  /** The answer's entity tag, for an operation that declares one (not for a file). */
  etag?: string;
  /** True when this is the stored first answer to an idempotent retry. */
  replayed: boolean;
  /** A read whose answer matches a tag the caller holds: the transport says so instead of sending it. */
  notModified: boolean;
}

/** The core context of one call: the caller, and the request facts core uses. */
export function callContext(
  services: Services,
  actor: Actor,
  request: { origin: string; ifMatch?: string; userAgent?: string },
): Ctx {
  return { db: services.db, clock: services.clock, actor, services, request };
}

export async function callOperation(call: {
  operation: AnyOperation;
  actor: Actor;
  services: Services;
  input: Record<string, unknown>;
  request: CallRequest;
}): Promise<CallAnswer> {
  const { operation, request } = call;
  const ctx = callContext(call.services, call.actor, {
    origin: request.origin,
    // Only an operation that declares If-Match sees one: elsewhere a tag sent is ignored.
    ifMatch: operation.ifMatch ? request.ifMatch : undefined,
    userAgent: request.userAgent,
  });
  const result = await invoke(operation, ctx, call.input, {
    bodyFields: request.bodyFields,
    idempotency:
      operation.idempotent && request.idempotencyKey !== undefined
        ? { key: request.idempotencyKey, ...request.callName }
        : undefined,
  });
  const isFile = isTableFile(result.data) || isDocumentFile(result.data);
  const etag = operation.etag && !isFile ? etagOf(result.data) : undefined;
  // Only a read is skipped as unchanged: a write's answer is always sent.
  const notModified =
    etag !== undefined &&
    operation.effect === 'read' &&
    !!request.ifNoneMatch &&
    tagListMatches(request.ifNoneMatch, etag);
  return { data: result.data, etag, replayed: result.replayed, notModified };
}
