// Whether a key may call an operation at all: the checks invoke makes of the caller whatever the
// input (the read-only demonstration, the scope, people's data). invoke refuses by them; the MCP
// tool list shows a key only the tools that pass them.
import type { Actor } from '../actor';
import { hasScope, type Scope } from '../scopes';
import type { AnyOperation } from './operation';
import { canReadPeople } from './personal-data';

type Caller = Pick<Actor, 'scopes' | 'keyCreatedUtc' | 'demonstration' | 'operator'>;

/** The scope this call needs of this key: older keys keep the scope they were made under. */
export function scopeNeeded(operation: AnyOperation, caller: Pick<Actor, 'keyCreatedUtc'>): Scope | 'any' {
  const older = operation.olderKeys;
  if (older && caller.keyCreatedUtc < older.madeBefore) return older.scope;
  return operation.scope;
}

/** True when no input could make invoke refuse the caller for who they are. */
export function mayCall(operation: AnyOperation, caller: Caller): boolean {
  if (operation.operator && !caller.operator) return false;
  if (operation.effect !== 'read' && caller.demonstration) return false;
  const needed = scopeNeeded(operation, caller);
  if (needed !== 'any' && !hasScope(caller.scopes, needed)) return false;
  return !operation.aboutPeople || canReadPeople(caller);
}
