// Types of sightings.js (plain JavaScript: a module of the door scanner page, bundled by the build).
export interface Sightings {
  seen(texts: readonly string[], now: number): string | null;
  reset(): void;
}
export declare function sightings(options?: { goneAfterReads?: number; goneAfterMs?: number }): Sightings;
