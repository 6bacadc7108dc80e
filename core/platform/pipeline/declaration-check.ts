// What invoke enforces from a declaration must be something it can enforce: the server refuses to
// start with an operation whose declaration it cannot honour, rather than answer without the rule.
import type { AnyOperation } from './operation';
import { problemsOf } from './operation-problems';

/** What is wrong with one operation's declaration, sentence by sentence (none when it is sound). */
export function declarationFaults(operation: AnyOperation): string[] {
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
  return faults;
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

/** Throws, naming every fault, when any operation's declaration cannot be honoured. */
export function checkDeclarations(operations: Iterable<AnyOperation>): void {
  const faults = [...new Set(operations)].flatMap((operation) =>
    declarationFaults(operation).map((fault) => `${operation.name} ${fault}.`),
  );
  if (faults.length > 0)
    throw new Error(`Operations declare what invoke cannot honour:\n${faults.join('\n')}`);
}
