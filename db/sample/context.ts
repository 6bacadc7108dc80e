// What every area's sample data is made with: the workspace, the slug suffix, the day it is made
// relative to, and the ids (stable names -> ids, so references between areas hold).
export interface SampleContext {
  workspaceId: string;
  /** Added to every event slug (slugs are unique across the deployment); empty for the demonstration. */
  slugSuffix: string;
  /** Midnight UTC of the day the data is made; every date is relative to it. */
  day0: Date;
  id(name: string): string;
}
