// A write that collides with a unique key of the database answers the problem the operation
// declares for that key. The statement's failure reaches here before the enclosing savepoint or
// transaction is rolled back, and naming the problem runs no statement, so the rollback is as before.

import type * as v from 'valibot';
import { violatedUnique } from '../../../db/errors';
import { problem } from '../problems';
import type { EventReads, InputSchema, Operation } from './operation';

/** The declared problem for a unique violation, or the error as it was. */
export function uniqueProblem<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  operation: Operation<I, O, W, D>,
  input: v.InferOutput<I>,
  error: unknown,
): unknown {
  const columns = violatedUnique(error);
  const declared = columns === null ? undefined : operation.unique?.[columns];
  if (declared === undefined) return error;
  if (typeof declared === 'string') return problem(declared);
  return problem(declared.code, declared.detail(input));
}
