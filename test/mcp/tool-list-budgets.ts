// The sizes `tools/list` must stay under, in bytes of its JSON answer: held by toolsets.test.ts and
// quoted by README.md and docs/architecture.md (test/docs/docs-true.test.ts keeps the quotes equal).
// Raising one is a decision, said with its reason where the test holds it.

/** Each preset an assistant is given (dashboard, automation, assistant), by default or with every toolset. */
export const presetListBytes = 60_000;
/** The default toolsets of a key that may do everything (the budget issue 25 set). */
export const defaultListBytes = 60_000;
/**
 * The defaults and any one toolset more, for a key that may do everything: 68 KB until issue 52's
 * approval put approve_order and decline_order (1.5 KB) among the orders of the defaults and its
 * waiting list a switch on ticket types and an offer time in the sign-up settings (both among the
 * defaults), which the defaults plus the programme then passed.
 */
export const oneMoreToolsetBytes = 71_000;
/** Every toolset of a key that may do everything: 170 KB until issue 52's approval (1.5 KB) and its four waiting-list tools. */
export const everyToolsetBytes = 176_000;
/** What one scope adds to the list of a key holding only people:read, with every toolset. */
export const oneScopeBytes = 18_000;
