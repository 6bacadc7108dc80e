// Every problem code an operation can answer, from its one declaration: the codes its own rules
// answer plus those that follow from what it is (scoped, validated, about an event, in a module, a
// door feature, a write, idempotent, conditional, paged). OpenAPI lists them and invoke checks
// that nothing else is ever answered.

import { type ProblemCode, problemCatalogue } from '../problems';
import type { AnyOperation } from './operation';

const cache = new WeakMap<AnyOperation, ReadonlySet<ProblemCode>>();

/** Answered by the shared layer to any call: no key, a bad key, too many calls, a fault. */
export const callProblems: readonly ProblemCode[] = [
  'invalidKey',
  'keyExpired',
  'keyRevoked',
  'rateLimited',
  'serverError',
];

function derived(op: AnyOperation): ProblemCode[] {
  const fields = new Set(Object.keys(op.input.entries));
  const codes: ProblemCode[] = [...callProblems];
  if (op.scope !== 'any') codes.push('missingScope');
  if (fields.size > 0) codes.push('invalidRequest');
  if (op.effect !== 'read') codes.push('invalidBody', 'demoWorkspace');
  if (fields.has('eventId')) codes.push('eventNotFound');
  if (op.doors) codes.push('onlineEvent');
  if (op.module) codes.push('moduleOff');
  if (op.aboutPeople) codes.push('peopleScope');
  if (op.idempotent) codes.push('invalidIdempotencyKey', 'idempotencyKeyInUse', 'idempotencyKeyReused');
  if (op.ifMatch) codes.push('preconditionFailed');
  if (fields.has('cursor')) codes.push('invalidCursor');
  if (fields.has('updatedSince')) codes.push('invalidUpdatedSince');
  if (fields.has('sort')) codes.push('invalidSort');
  return codes;
}

/** The codes, in the catalogue's order. */
export function problemsOf(op: AnyOperation): ReadonlySet<ProblemCode> {
  let codes = cache.get(op);
  if (!codes) {
    const all = new Set<ProblemCode>([...derived(op), ...op.problems]);
    codes = new Set((Object.keys(problemCatalogue) as ProblemCode[]).filter((c) => all.has(c)));
    cache.set(op, codes);
  }
  return codes;
}
