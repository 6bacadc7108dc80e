// An event's address /e/{slug} is unique across the deployment: the answer when a slug is taken.
import type { UniqueProblem } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';

const detail = (slug: string | undefined) =>
  `Another event already has the slug "${slug}"; event addresses are unique.`;

export function slugTaken(slug: string) {
  return problem('slugTaken', detail(slug));
}

/** Declared for the unique index on events.slug: the slug sent is another event's. */
export const slugTakenBy: UniqueProblem<{ slug?: string }> = {
  code: 'slugTaken',
  detail: (input) => detail(input.slug),
};
