// Scopes, presets and the rewrite of keys made before per-area scopes existed.
import { problem } from './problems';

export const scopes = [
  'events:read',
  'events:write',
  'tickets:read',
  'tickets:write',
  'orders:read',
  'orders:write',
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
  'cfp:write',
  'submissions:write',
  'crew:read',
  'crew:write',
  'surveys:read',
  'surveys:write',
  'finance:read',
  'finance:write',
  'logistics:write',
  'certificates:write',
  'sharekit:read',
  'sharekit:write',
  'communities:read',
  'communities:write',
  'webhooks:read',
  'webhooks:write',
  'people:read',
  'people:write',
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
  'orders:write',
  'sponsors:write',
  'leads:write',
  'cfp:write',
  'submissions:write',
  'crew:write',
  'surveys:write',
  'finance:write',
  'logistics:write',
  'certificates:write',
  'sharekit:write',
  'communities:write',
  'people:write',
];

/**
 * Writes whose read lies in another area. leads:write, a booth's narrow scanner scope, reads the
 * sponsors its leads belong to; speakers' stays and travel, and certificates, are read with
 * attendees:read (as their event types are subscribed to). submissions:write, a speaker-facing
 * site's scope, reads nothing: it sends submissions and sees only the answers to its own calls.
 */
const readsElsewhere: Partial<Record<Scope, Scope | null>> = {
  'leads:write': 'sponsors:read',
  'logistics:write': 'attendees:read',
  'certificates:write': 'attendees:read',
  'submissions:write': null,
};

/** The read a write scope includes: its own area's (program:write also reads sessions). */
export function readIncludedBy(write: Scope): Scope | undefined {
  const elsewhere = readsElsewhere[write];
  if (elsewhere !== undefined) return elsewhere ?? undefined;
  const read = write.replace(/:write$/, ':read');
  return write.endsWith(':write') && isScope(read) ? read : undefined;
}

/**
 * The narrower write an organiser's write includes: sponsors:write captures leads, cfp:write sends
 * submissions as a speaker-facing site would.
 */
const narrowerWrites: Partial<Record<Scope, Scope>> = {
  'sponsors:write': 'leads:write',
  'cfp:write': 'submissions:write',
};

export function writeIncludedBy(write: Scope): Scope | undefined {
  return narrowerWrites[write];
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
  if (old.includes('read')) for (const s of readScopes) if (!extensionScopes.includes(s)) rewritten.add(s);
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
