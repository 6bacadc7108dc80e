// What a ticket's (or certificate's) holder is called wherever a person reads it: the ticket page,
// the page a registration ends on, the calendar file, the confirmation e-mail's calendar entry, a
// certificate's verification page. One wording for each case, so an erased holder never reads as
// "null null" in one place and as a sentence in another.

/** Where the holder erased their personal data. */
export const erasedHolderWords = 'Name removed at the holder’s request';
/** Where no name was ever given (an import without names). */
export const unnamedHolderWords = 'Not named';

export interface HolderNameRow {
  first_name: string | null;
  last_name: string | null;
  erased: number | boolean;
}

/** The holder's name: first and last, whichever are given; null once erased or when neither is. */
export function holderName(row: HolderNameRow): string | null {
  if (row.erased === 1 || row.erased === true) return null;
  return [row.first_name, row.last_name].filter(Boolean).join(' ') || null;
}

/** The name as shown: the name, else the words that say why there is none. */
export function holderWords(name: string | null, erased: boolean): string {
  return name ?? (erased ? erasedHolderWords : unnamedHolderWords);
}
