// What the consent page offers and ticks. Offered: the signed-in key's scopes, never more (the
// verifier grants a token no scope its key lacks anyway); a read the key holds through its area's
// write is offered on its own, so a person may let an assistant only see what the key may change.
// Ticked: what the assistant asked for; when it named no scope of the API, the reads that show no personal data (never a write, never
// people:read). Asked for and not held: named on the page, not offered.
import { describeScope, type ScopeDescription } from '../../core/platform/scope-descriptions';
import { hasScope, isScope, readsWithoutPersonalData, type Scope, scopes } from '../../core/platform/scopes';

export interface ConsentChoices {
  offered: (ScopeDescription & { asked: boolean; ticked: boolean })[];
  /** What the assistant asked for that the key does not hold. */
  unheld: ScopeDescription[];
  /** The assistant named no scope of the API. */
  askedForNothing: boolean;
}

export function consentChoices(held: readonly Scope[], requested: readonly string[]): ConsentChoices {
  const asked = new Set(requested.filter(isScope));
  const askedForNothing = asked.size === 0;
  const startsTicked = (scope: Scope) =>
    askedForNothing ? readsWithoutPersonalData.includes(scope) : asked.has(scope);
  return {
    offered: scopes
      .filter((scope) => hasScope(held, scope))
      .map((scope) => ({ ...describeScope(scope), asked: asked.has(scope), ticked: startsTicked(scope) })),
    unheld: scopes.filter((scope) => asked.has(scope) && !hasScope(held, scope)).map(describeScope),
    askedForNothing,
  };
}
