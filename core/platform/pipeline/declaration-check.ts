// What invoke enforces from a declaration must be something it can enforce: the server refuses to
// start with an operation whose declaration it cannot honour, rather than answer without the rule.
import type { EventModule } from '../../../db/values';
import type { AnyOperation } from './operation';
import { problemsOf } from './operation-problems';

/**
 * The areas of core an organiser switches off for an event, by the modules that do it (an area of
 * two modules, sponsors or finance, has operations of each): every operation of theirs on an event
 * declares one, so invoke answers moduleOff for it. Orders are no such area: only their payment
 * operations are the payments module's.
 */
export const moduleAreas = {
  checkin: ['checkin'],
  programme: ['program'],
  cfp: ['cfp'],
  crew: ['crew'],
  surveys: ['feedback'],
  sharekit: ['sharekit'],
  sponsors: ['sponsors', 'leads'],
  finance: ['budget', 'payments'],
} as const satisfies Record<string, readonly EventModule[]>;

export type ModuleArea = keyof typeof moduleAreas;

/** How an operation is reached, which its declaration must fit. */
export interface Exposure {
  /** REST runs it as a PATCH: a partial update of one resource, conditional on its entity tag. */
  partialUpdate?: boolean;
  /** Keys reach it: a REST route or an MCP tool runs it. */
  byKeys?: boolean;
  /** The area of core it belongs to, when that area is one an organiser switches off. */
  area?: ModuleArea;
}

/** What is wrong with one operation's declaration, sentence by sentence (none when it is sound). */
export function declarationFaults(operation: AnyOperation, exposure: Exposure = {}): string[] {
  const faults: string[] = [];
  const { ifMatch, activity, unique } = operation;
  const writes = operation.effect !== 'read';
  if (ifMatch && typeof ifMatch.current !== 'function')
    faults.push('declares ifMatch without current, the loader of the view its entity tag names');
  if (ifMatch && typeof ifMatch.hold !== 'function')
    faults.push('declares ifMatch without hold, the lock of what its entity tag names (tagged-row.ts)');
  // A caller chains changes with the tag the last answer carried, not with a read in between; a
  // removal leaves nothing to tag, so it only checks the tag it is sent.
  if (
    ifMatch &&
    typeof ifMatch.current === 'function' &&
    !operation.etag &&
    operation.effect !== 'destructive'
  )
    faults.push('declares ifMatch but no etag, so its answer gives no tag for the next If-Match');
  if (writes && !activity) faults.push('writes without an activity declaration (or { none: why })');
  if (activity && 'none' in activity && !activity.none)
    faults.push('declares no activity without saying why');
  if (activity && !('none' in activity)) {
    if (!activity.resourceType) faults.push('declares activity without a resourceType');
    if (typeof activity.resourceId !== 'function') faults.push('declares activity without a resourceId');
  }
  if (!writes && (ifMatch || activity || unique))
    faults.push('reads, yet declares ifMatch, activity or unique, which only writes have');
  for (const [columns, mapped] of Object.entries(unique ?? {})) {
    const code = typeof mapped === 'string' ? mapped : mapped.code;
    if (!problemsOf(operation).has(code))
      faults.push(`maps a collision on ${columns} to ${code}, a problem it does not declare`);
  }
  if (takesTicketCode(operation.input) && !operation.ticketCodes)
    faults.push('takes a ticketCode but does not declare ticketCodes, so its misses escape the guess limit');
  // A PATCH changes some fields of what the caller read: without If-Match it would overwrite,
  // unseen, a change made since.
  if (exposure.partialUpdate && !ifMatch)
    faults.push('is a PATCH without ifMatch, so it would overwrite unseen a change made since the read');
  faults.push(...scopeFaults(operation, exposure));
  if (exposure.area) faults.push(...moduleFaults(operation, moduleAreas[exposure.area]));
  return faults;
}

/**
 * The operator's flag is its permission: its scope is 'any', no key's date changes it, and no route
 * or tool reaches it. An operation keys reach that is open to every key (scope 'any': about the key
 * itself, or an export that checks the scope of the list it exports) only reads.
 */
function scopeFaults(operation: AnyOperation, { byKeys }: Exposure): string[] {
  const faults: string[] = [];
  if (operation.operator) {
    if (operation.scope !== 'any')
      faults.push(`is the operator's, yet needs the scope ${operation.scope}: its flag is its permission`);
    if (operation.olderKeys) faults.push("is the operator's, yet declares olderKeys, which only keys have");
    if (byKeys) faults.push("is the operator's, yet a route or a tool runs it for keys");
  } else if (byKeys && operation.scope === 'any' && operation.effect !== 'read')
    faults.push('is open to every key (scope any) yet writes: only the operator writes without a scope');
  return faults;
}

/** An operation on an event in an area an organiser switches off declares that area's module. */
function moduleFaults(operation: AnyOperation, modules: readonly EventModule[]): string[] {
  const onEvent = 'eventId' in ((operation.input as { entries?: object }).entries ?? {});
  if (!onEvent) return [];
  if (!operation.module)
    return [`is in an area switched off by the ${modules.join(' or ')} module, yet declares no module`];
  if (!modules.includes(operation.module))
    return [`declares the ${operation.module} module, not its area's (${modules.join(' or ')})`];
  return [];
}

/** Whether a schema has a ticketCode field, at its top or in objects within (an array of scans). */
function takesTicketCode(schema: unknown): boolean {
  const node = schema as {
    entries?: Record<string, unknown>;
    item?: unknown;
    wrapped?: unknown;
    pipe?: unknown[];
  };
  if (node.entries) return 'ticketCode' in node.entries || Object.values(node.entries).some(takesTicketCode);
  if (node.item) return takesTicketCode(node.item);
  if (node.wrapped) return takesTicketCode(node.wrapped);
  return false;
}

/**
 * Throws, naming every fault, when any operation's declaration cannot be honoured; `exposure`
 * tells how each is reached (src/declarations.ts knows the routes' methods and the areas).
 */
export function checkDeclarations(
  operations: Iterable<AnyOperation>,
  exposure: (operation: AnyOperation) => Exposure = () => ({}),
): void {
  const faults = [...new Set(operations)].flatMap((operation) =>
    declarationFaults(operation, exposure(operation)).map((fault) => `${operation.name} ${fault}.`),
  );
  if (faults.length > 0)
    throw new Error(`Operations declare what invoke cannot honour:\n${faults.join('\n')}`);
}
