// The input fields of adding and of changing a resource, derived from the one list of its fields
// (sponsor-fields.ts, level-fields.ts, ...): a change sends only what changes, so every field is
// optional; an addition must send the `required` ones and may leave out the rest. Derived, the two
// cannot drift apart, and their JSON Schema is what the list's order and descriptions say.
import * as v from 'valibot';

/** Every field optional: the fields of a change ("send only what changes"). */
export function changeFields<E extends v.ObjectEntries>(fields: E): ChangeFields<E> {
  return v.partial(v.object(fields)).entries as ChangeFields<E>;
}

/** The fields of an addition: the `required` ones as they are, the others optional, in the list's order. */
export function addFields<E extends v.ObjectEntries, K extends keyof E & string>(
  fields: E,
  required: readonly [K, ...K[]],
): AddFields<E, K> {
  const all = v.object(fields);
  return { ...v.partial(all).entries, ...v.pick(all, required).entries } as AddFields<E, K>;
}

type ChangeFields<E extends v.ObjectEntries> = { [F in keyof E]: v.OptionalSchema<E[F], undefined> };

type AddFields<E extends v.ObjectEntries, K extends keyof E> = {
  [F in keyof E]: F extends K ? E[F] : v.OptionalSchema<E[F], undefined>;
};
