// What a write noticed but did not refuse (a receiver's name that does not resolve now): the
// answer's `warnings`, present only when there is something to say. A Tessera extension: each
// warning names its field as a field error does, with a stable code to branch on.
import * as v from 'valibot';

export interface Warning {
  /** Stable, like a problem code: receiverUnresolved. */
  code: string;
  /** The input field it is about. */
  field: string;
  /** One sentence for a person. */
  detail: string;
}

export const warningSchema = v.object({
  code: v.pipe(v.string(), v.description('Stable code: receiverUnresolved (the name does not resolve now).')),
  field: v.pipe(v.string(), v.description('The input field it is about.')),
  detail: v.pipe(v.string(), v.description('What was noticed, for people.')),
});

/** The answer's optional `warnings` member. */
export const warningsField = v.optional(
  v.pipe(
    v.array(warningSchema),
    v.description(
      'Tessera extension: what the write noticed but took (e.g. a receiver whose name does not resolve now); absent when nothing.',
    ),
    v.metadata({ 'x-tessera-extension': true }),
  ),
);

/** The answer with its warnings, when there are any. */
export function withWarnings<T extends object>(
  answer: T,
  warnings: readonly Warning[],
): T & { warnings?: Warning[] } {
  return warnings.length > 0 ? { ...answer, warnings: [...warnings] } : answer;
}
