// The personal-data rule, in one place. Each resource that holds personal data declares, once,
// which of its fields are personal and which columns they come from; from that declaration:
// - redaction: the fields are null without people:read or once the person erased their data, and
//   the resource says which of the three cases applies (personalData, erased);
// - erasure: the columns are nulled in the table, and the fields in every stored copy of the
//   resource (outbox messages, kept idempotent answers).
import type { Database } from '../../db/schema';
import type { Actor } from './actor';
import { hasScope } from './scopes';

export type PersonalData = 'included' | 'withheld' | 'erased';

export interface PersonalResource<F extends string = string, P extends string = never> {
  /** The resource's name, as the docs call it. */
  resource: string;
  /** The field of its views that holds its id (attendeeId): how stored copies are recognised. */
  idField: string;
  table: keyof Database;
  /** View field -> column: withheld without people:read, gone once the person erased their data. */
  fields: Record<F, string>;
  /** View field -> column shown to every reader (a speaker's name on the programme) but gone once erased. */
  publicUntilErased?: Record<P, string>;
  /** Personal columns no view shows (a pass holder's email), erased with the person. */
  storedOnly?: string[];
  /** The column holding the person's email address: how erasure finds their rows. */
  emailColumn: string;
}

export function declarePersonal<F extends string, P extends string = never>(
  declaration: PersonalResource<F, P>,
): PersonalResource<F, P> {
  return declaration;
}

/** Every column a declaration nulls on erasure. */
export function erasedColumns(declaration: PersonalResource<string, string>): string[] {
  return [
    ...Object.values(declaration.fields),
    ...Object.values(declaration.publicUntilErased ?? {}),
    ...(declaration.storedOnly ?? []),
  ];
}

/** Every view field a declaration nulls in a stored copy on erasure. */
export function erasedFields(declaration: PersonalResource<string, string>): string[] {
  return [...Object.keys(declaration.fields), ...Object.keys(declaration.publicUntilErased ?? {})];
}

export function canReadPeople(actor: Actor): boolean {
  return hasScope(actor.scopes, 'people:read');
}

/** Who the resource is rendered for: a caller, or the outbox (whose dispatcher redacts per subscriber). */
export type Reader = Actor | 'unredacted';

export function personalDataFor(reader: Reader, erased: boolean): PersonalData {
  if (erased) return 'erased';
  return reader === 'unredacted' || canReadPeople(reader) ? 'included' : 'withheld';
}

type Redacted<T, K extends keyof T> = Omit<T, K> & { [Q in K]: T[Q] | null } & {
  erased: boolean;
  personalData: PersonalData;
};

/**
 * Applies the rule to one resource: its personal fields become null unless the state is included
 * (and its public-until-erased ones once erased), and `erased` / `personalData` are set.
 */
export function applyPersonalData<T extends object, F extends keyof T & string, P extends keyof T & string>(
  reader: Reader,
  resource: T,
  declaration: PersonalResource<F, P>,
  erased: boolean,
): Redacted<T, F | P> {
  const personalData = personalDataFor(reader, erased);
  const copy = { ...resource } as Record<string, unknown>;
  if (personalData !== 'included') for (const field of Object.keys(declaration.fields)) copy[field] = null;
  if (erased) for (const field of Object.keys(declaration.publicUntilErased ?? {})) copy[field] = null;
  copy.erased = erased;
  copy.personalData = personalData;
  return copy as Redacted<T, F | P>;
}

/**
 * Removes erased people from a stored document (a message, a kept answer): every object that is a
 * copy of a declared resource whose id is among the erased loses its personal fields and says
 * erased. Answers whether anything changed. The document is changed in place.
 */
export function scrubErased(
  document: unknown,
  declarations: readonly PersonalResource<string, string>[],
  erasedIds: ReadonlySet<string>,
): boolean {
  let changed = false;
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const object = node as Record<string, unknown>;
    for (const declaration of declarations) {
      const id = object[declaration.idField];
      if (typeof id !== 'string' || !erasedIds.has(id)) continue;
      const fields = erasedFields(declaration).filter((f) => f in object);
      if (fields.length === 0) continue; // another resource naming it (an attendee's orderId)
      for (const field of fields) object[field] = null;
      if ('erased' in object) object.erased = true;
      if ('personalData' in object) object.personalData = 'erased';
      changed = true;
    }
    for (const value of Object.values(object))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
  return changed;
}
