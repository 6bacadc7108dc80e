// What the scanner page's modules share to show things: its elements by id, and a person's name.

/** The page's element with this id. */
export const $ = (id) => document.getElementById(id);

/** A person's name as the page shows it, or null when the answer withheld it. */
export const nameOf = (person) =>
  person && (person.firstName || person.lastName)
    ? [person.firstName, person.lastName].filter(Boolean).join(' ')
    : null;
