// Scopes, presets and the rewrite of keys made before per-area scopes existed.
import { problem } from './problems';

export const scopes = [
  'events:read',
  'events:write',
  'tickets:read',
  'tickets:write',
  'orders:read',
  'attendees:read',
  'attendees:write',
  'checkins:read',
  'checkins:write',
  'program:read',
  'program:write',
  'sponsors:read',
  'sponsors:write',
  'leads:write',
  'cfp:read',
  'crew:read',
  'crew:write',
  'surveys:read',
  'surveys:write',
  'finance:read',
  'sharekit:read',
  'sharekit:write',
  'communities:read',
  'communities:write',
  'webhooks:read',
  'webhooks:write',
  'people:read',
] as const;

export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

export const readScopes: readonly Scope[] = scopes.filter((s) => s.endsWith(':read'));

/** Scopes that show people's names, addresses and answers wherever the other scopes reach. */
export const personalDataScopes: readonly Scope[] = ['people:read'];

/** The reads that show no personal data: what an assistant gets offered when it names no scope. */
export const readsWithoutPersonalData: readonly Scope[] = readScopes.filter(
  (s) => !personalDataScopes.includes(s),
);

export const presets = {
  dashboard: ['events:read', 'tickets:read', 'orders:read', 'checkins:read', 'program:read'],
  automation: [
    'events:read',
    'tickets:read',
    'orders:read',
    'attendees:read',
    'attendees:write',
    'people:read',
    'webhooks:read',
    'webhooks:write',
  ],
  assistant: readScopes,
  everything: scopes,
} as const satisfies Record<string, readonly Scope[]>;

export type Preset = keyof typeof presets;

export function isPreset(value: string): value is Preset {
  return Object.hasOwn(presets, value);
}

/**
 * Scopes this service adds to the API's table, in its style (marked as extensions wherever scopes
 * are listed): the writes of the areas the API shows only reads for.
 */
export const extensionScopes: readonly Scope[] = [
  'sponsors:write',
  'leads:write',
  'crew:write',
  'surveys:write',
  'sharekit:write',
  'communities:write',
];

/**
 * The read a write scope includes: its own area's (program:write also reads sessions). leads:write,
 * a booth's narrow scanner scope, captures leads and reads the sponsors area they belong to, but
 * changes no sponsor or level.
 */
export function readIncludedBy(write: Scope): Scope | undefined {
  if (write === 'leads:write') return 'sponsors:read';
  const read = write.replace(/:write$/, ':read');
  return write.endsWith(':write') && isScope(read) ? read : undefined;
}

/** The narrower write a write includes: sponsors:write, the organiser's, captures leads too. */
export function writeIncludedBy(write: Scope): Scope | undefined {
  return write === 'sponsors:write' ? 'leads:write' : undefined;
}

/** Whether the scopes held allow what needs `needed`: held itself, or a write that includes it. */
export function hasScope(held: readonly Scope[], needed: Scope): boolean {
  if (held.includes(needed)) return true;
  if (held.some((s) => writeIncludedBy(s) === needed)) return true;
  return needed.endsWith(':read') && held.some((s) => readIncludedBy(s) === needed);
}

export function requireScope(held: readonly Scope[], needed: Scope): void {
  if (!hasScope(held, needed)) {
    throw problem('missingScope', `This call needs the ${needed} scope, which the key does not have.`, {
      scope: needed,
    });
  }
}

export const legacyScopes = ['read', 'write'] as const;
export type LegacyScope = (typeof legacyScopes)[number];

/**
 * Keys made before per-area scopes had read and write. read became every read scope
 * (personal data included); write became attendees:write plus checkins:write.
 */
export function rewriteLegacyScopes(old: readonly LegacyScope[]): Scope[] {
  const rewritten = new Set<Scope>();
  if (old.includes('read')) for (const s of readScopes) rewritten.add(s);
  if (old.includes('write')) {
    rewritten.add('attendees:write');
    rewritten.add('checkins:write');
  }
  return scopes.filter((s) => rewritten.has(s));
}

/** Keeps the canonical order of the scope table, without repeats. */
export function normaliseScopes(list: readonly Scope[]): Scope[] {
  return scopes.filter((s) => list.includes(s));
}
