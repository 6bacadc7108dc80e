// Turns a checked import file into the plan of rows: communities first, then each event with its
// areas in the order their references need.

import { venueProblem, venueSent } from '../events';
import { isCurrency } from '../platform/money';
import { isTimeZone } from '../platform/time';
import type { EventInput, ImportFile } from './format';
import { flag, ImportPlan, json } from './plan';
import type { EventScope } from './scope';
import { planCfpSharekit } from './sections/cfp-sharekit';
import { planCommunity } from './sections/communities';
import { planCrew } from './sections/crew';
import { planFinance } from './sections/finance';
import { planLogistics } from './sections/logistics';
import { planPass } from './sections/passes';
import { planProgramme } from './sections/programme';
import { planSales } from './sections/sales';
import { planSponsors } from './sections/sponsors';
import { planSurveys } from './sections/surveys';
import { StoredOrders } from './stored-orders';

/** `ordersOf` gives each event's orders when the file was read without them (read-file.ts). */
export function planFile(
  file: ImportFile,
  workspaceId: string,
  now: string,
  ordersOf: (event: number) => StoredOrders = (i) => StoredOrders.of(file.events[i]!.orders),
): ImportPlan {
  const plan = new ImportPlan(workspaceId);
  file.communities.forEach((c, i) => {
    planCommunity(plan, workspaceId, c, `communities[${i}]`);
  });
  const slugs = new Map<string, string>();
  file.events.forEach((event, i) => {
    const path = `events[${i}]`;
    const previous = slugs.get(event.slug);
    if (previous) plan.issue(`${path}.slug`, `${previous} has this slug already.`);
    slugs.set(event.slug, path);
    planEvent(plan, event, ordersOf(i), path, now);
  });
  // Passes after the events: they admit events and their holders' orders are in the sales event.
  const currencies = new Map(file.events.map((e) => [e.key, e.currency]));
  file.passes.forEach((p, i) => {
    planPass(plan, p, `passes[${i}]`, currencies);
  });
  plan.checkReferences();
  return plan;
}

function planEvent(
  plan: ImportPlan,
  event: EventInput,
  orders: StoredOrders,
  path: string,
  now: string,
): void {
  const eventId = plan.claim('event', '', event.key, path);
  if (!isTimeZone(event.timeZone))
    plan.issue(`${path}.timeZone`, `"${event.timeZone}" is not an IANA time zone.`);
  const currencyKnown = isCurrency(event.currency);
  if (!currencyKnown) plan.issue(`${path}.currency`, `"${event.currency}" is not an ISO 4217 currency.`);
  const venue = venueProblem(event.online, venueSent(event.venue, 'none'), 'mayLackOne');
  if (venue) plan.issue(`${path}.venue`, venue);
  const [starts, ends] = plan.period(event.startsUtc, event.endsUtc, path, ['startsUtc', 'endsUtc']);
  plan.add(
    'events',
    {
      id: eventId,
      workspace_id: plan.workspaceId,
      name: event.name,
      slug: event.slug,
      status: event.status,
      online: flag(event.online),
      venue_name: event.venue?.name ?? null,
      venue_address: event.venue?.address ?? null,
      venue_city: event.venue?.city ?? null,
      venue_country: event.venue?.country ?? null,
      time_zone: event.timeZone,
      starts_utc: starts,
      ends_utc: ends,
      languages: json(event.languages),
      currency: event.currency,
      modules: json(event.modules),
      community_id: plan.refOrNull('community', '', event.community, `${path}.community`, 'community'),
    },
    path,
  );
  // Amounts are read in the event's currency: without a real one they cannot be, and are not.
  if (!currencyKnown) return;
  const scope: EventScope = {
    plan,
    workspaceId: plan.workspaceId,
    eventId,
    eventKey: event.key,
    currency: event.currency,
    path,
    now,
  };
  const language = event.languages[0]!;
  planSales(scope, event, language, orders);
  planProgramme(scope, event, event.online);
  planSponsors(scope, event);
  planCrew(scope, event);
  planSurveys(scope, event);
  planFinance(scope, event);
  planCfpSharekit(scope, event, language);
  planLogistics(scope, event);
}
