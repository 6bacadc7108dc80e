// The personal-data rule, in one place. Each resource that holds personal data declares, once,
// which of its fields are personal and which columns they come from; from that declaration:
// - redaction: the fields are null without people:read or once the person erased their data, and
//   the resource says which of the three cases applies (personalData, erased);
// - erasure: the columns are nulled in the table, and the fields in every stored copy of the
//   resource (outbox messages, kept idempotent answers).
import type { Expression } from 'kysely';
import type { Db } from '../../../db/connect';
import type { Database } from '../../../db/schema';
import type { Actor } from '../actor';
import { hasScope } from '../scopes';

export type PersonalData = 'included' | 'withheld' | 'erased';

/** The personal fields of a resource as it is shown: what redaction and scrubbing need. */
export interface PersonalFields<F extends string = string, P extends string = never> {
  /** The resource's name, as the docs call it. */
  resource: string;
  /** The field of its views that holds its id (attendeeId): how copies of it are recognised. */
  idField: string;
  /** View field -> column: withheld without people:read, gone once the person erased their data. */
  fields: Record<F, string>;
  /** View field -> column shown to every reader (a speaker's name on the programme) but gone once erased. */
  publicUntilErased?: Record<P, string>;
  /**
   * View fields that are credentials (a ticket's code): withheld without people:read like personal
   * fields, but kept once the person erased their data, as the ticket still admits its holder.
   */
  credentials?: readonly string[];
}

/** A resource kept in a table: erasure finds the person's rows by email and nulls the columns. */
export interface PersonalResource<F extends string = string, P extends string = never>
  extends PersonalFields<F, P> {
  table: keyof Database;
  /** Personal columns no view shows (a pass holder's email), erased with the person. */
  storedOnly?: string[];
  /** The column holding the person's email address: how erasure finds their rows. */
  emailColumn: string;
  /**
   * Where no B-tree index serves `emailColumn` (the attendees' on SQLite: a random address in every
   * new row cost a registration a page each): the ids of the workspace's rows that may hold the
   * address, a subquery over the index that does. Erasure checks the address exactly on them.
   */
  emailCandidates?: (db: Db, workspaceId: string, email: string) => Expression<string>;
  /** What an erasure's summary counts its rows as, when not its resource name (a ticket, a journey). */
  countedAs?: string;
  /**
   * The column naming the ticket the row is about (a lead's visitor): erasure finds the person's rows
   * by their tickets too, where the row may hold no email address.
   */
  attendeeColumn?: string;
  /**
   * Columns linking the row to another personal resource's row (a stay to its speaker), by that
   * resource's table: erasure finds the person's rows through the rows of theirs it erased before.
   */
  linkColumns?: Partial<Record<keyof Database, string>>;
  /**
   * The row that shows these rows inside it (a submission its speakers): erasure marks it changed
   * too, so a client syncing by updatedSince sees the erasure.
   */
  shownIn?: { table: keyof Database; column: string };
}

export function declarePersonal<F extends string, P extends string = never>(
  declaration: PersonalResource<F, P>,
): PersonalResource<F, P> {
  return declaration;
}

/** The personal fields of a resource that is only ever a copy (in a message) so far. */
export function declarePersonalFields<F extends string, P extends string = never>(
  declaration: PersonalFields<F, P>,
): PersonalFields<F, P> {
  return declaration;
}

/**
 * A column that only links a row to a person's ticket, in a row that names no one otherwise (who
 * answered a survey): erasure nulls the link and keeps the row, which still counts, anonymously.
 */
export interface AttendeeLink {
  /** What the rows are, as an erasure's summary counts them. */
  resource: string;
  table: keyof Database;
  /** The column naming the ticket (attendee id). */
  column: string;
}

export function declareAttendeeLink(link: AttendeeLink): AttendeeLink {
  return link;
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
export function erasedFields(declaration: PersonalFields<string, string>): string[] {
  return [...Object.keys(declaration.fields), ...Object.keys(declaration.publicUntilErased ?? {})];
}

export function canReadPeople(reader: Pick<Actor, 'scopes'>): boolean {
  return hasScope(reader.scopes, 'people:read');
}

/**
 * Who the resource is rendered for: a caller (or the key of a receiver, at delivery), or the
 * outbox (whose dispatcher redacts per receiver).
 */
export type Reader = Pick<Actor, 'scopes'> | 'unredacted';

export function personalDataFor(reader: Reader, erased: boolean): PersonalData {
  if (erased) return 'erased';
  return reader === 'unredacted' || canReadPeople(reader) ? 'included' : 'withheld';
}

type Redacted<T, K extends keyof T> = Omit<T, K> & { [Q in K]: T[Q] | null } & {
  erased: boolean;
  personalData: PersonalData;
};

/** The field names of each declaration, listed once (a page of 500 asked for them 500 times). */
const fieldLists = new WeakMap<
  PersonalFields<string, string>,
  { personal: string[]; untilErased: string[] }
>();

function fieldListsOf(declaration: PersonalFields<string, string>) {
  let lists = fieldLists.get(declaration);
  if (!lists) {
    lists = {
      personal: Object.keys(declaration.fields),
      untilErased: Object.keys(declaration.publicUntilErased ?? {}),
    };
    fieldLists.set(declaration, lists);
  }
  return lists;
}

/**
 * Applies the rule to one resource: its personal fields become null unless the state is included
 * (and its public-until-erased ones once erased), and `erased` / `personalData` are set. The
 * resource is the object its view has just built, and is changed in place (no copy per row).
 */
export function applyPersonalData<T extends object, F extends keyof T & string, P extends keyof T & string>(
  reader: Reader,
  resource: T,
  declaration: PersonalFields<F, P>,
  erased: boolean,
): Redacted<T, F | P> {
  const personalData = personalDataFor(reader, erased);
  const view = resource as Record<string, unknown>;
  const lists = fieldListsOf(declaration);
  if (personalData !== 'included') for (const field of lists.personal) view[field] = null;
  if (erased) for (const field of lists.untilErased) view[field] = null;
  if (declaration.credentials && reader !== 'unredacted' && !canReadPeople(reader))
    for (const field of declaration.credentials) view[field] = null;
  view.erased = erased;
  view.personalData = personalData;
  return view as Redacted<T, F | P>;
}

/** Every object of a stored document that is a copy of a declared resource, with its declaration. */
function* copiesIn(
  document: unknown,
  declarations: readonly PersonalFields<string, string>[],
): Generator<[Record<string, unknown>, PersonalFields<string, string>]> {
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
      if (typeof object[declaration.idField] !== 'string') continue;
      // Another resource naming it (an attendee's orderId) carries none of its fields.
      if (erasedFields(declaration).some((f) => f in object)) yield [object, declaration];
    }
    for (const value of Object.values(object))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
}

/**
 * Removes erased people from a stored document (a message, a kept answer): every copy of a declared
 * resource whose id is among the erased loses its personal fields and says erased. Answers whether
 * anything changed. The document is changed in place.
 */
export function scrubErased(
  document: unknown,
  declarations: readonly PersonalFields<string, string>[],
  erasedIds: ReadonlySet<string>,
): boolean {
  let changed = false;
  for (const [object, declaration] of copiesIn(document, declarations)) {
    if (!erasedIds.has(object[declaration.idField] as string)) continue;
    for (const field of erasedFields(declaration)) if (field in object) object[field] = null;
    if ('erased' in object) object.erased = true;
    if ('personalData' in object) object.personalData = 'erased';
    changed = true;
  }
  return changed;
}

/**
 * Applies the personal-data rule for a reader to a stored document (a message about to be
 * delivered): copies of declared resources lose their personal fields when the reader lacks
 * people:read. The document is changed in place.
 */
export function redactFor(
  document: unknown,
  reader: Reader,
  declarations: readonly PersonalFields<string, string>[],
): void {
  if (reader === 'unredacted' || canReadPeople(reader)) return;
  for (const [object, declaration] of copiesIn(document, declarations)) {
    for (const field of declaration.credentials ?? []) if (field in object) object[field] = null;
    if (object.personalData === 'erased') continue;
    for (const field of Object.keys(declaration.fields)) if (field in object) object[field] = null;
    if ('personalData' in object) object.personalData = 'withheld';
  }
}
