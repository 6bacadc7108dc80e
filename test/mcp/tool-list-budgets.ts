// The sizes `tools/list` must stay under, in bytes of its JSON answer: held by toolsets.test.ts and
// quoted by README.md and docs/architecture.md (test/docs/docs-true.test.ts keeps the quotes equal).
// Raising one is a decision, said with its reason where the test holds it.

/** Each preset an assistant is given (dashboard, automation, assistant), by default or with every toolset. */
export const presetListBytes = 60_000;
/** The default toolsets of a key that may do everything (the budget issue 25 set). */
export const defaultListBytes = 60_000;
/** The defaults and any one toolset more, for a key that may do everything. */
export const oneMoreToolsetBytes = 68_000;
/** Every toolset of a key that may do everything. */
export const everyToolsetBytes = 170_000;
/** What one scope adds to the list of a key holding only people:read, with every toolset. */
export const oneScopeBytes = 18_000;
