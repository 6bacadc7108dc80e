// Types of sightings.js (the door scanner page runs that file as it is).
export interface Sightings {
  seen(texts: readonly string[], now: number): string | null;
  reset(): void;
}
export declare function sightings(options?: { goneAfterReads?: number; goneAfterMs?: number }): Sightings;
