// The answers that wrap resources, each under a name, so a generated client has a type for every
// answer and not only for the resources inside it. A list of one named resource is <Resource>List
// (AttendeeList: its data, nextCursor, hasMore), named here from the route table, so a new list is
// named without a line here; the few other envelopes are named by what they hold.
import type * as v from 'valibot';
import { erasePersonData } from '../core/admin';
import { registerAttendees, searchAttendees } from '../core/attendees';
import { getAnswersSchema } from '../core/events';
import { exportEventData } from '../core/exports';
import {
  createHook,
  createWebhook,
  rotateWebhookSecret,
  sendTestMessage,
  updateWebhook,
} from '../core/webhooks';
import { routes } from './routes';

/** Answers that are no plain list, or whose items another list has too. */
const envelopes: Record<string, v.GenericSchema> = {
  AnswersSchema: getAnswersSchema.output,
  Registration: registerAttendees.output,
  AttendeeSearchResults: searchAttendees.output,
  CreatedWebhook: createWebhook.output,
  // A Webhook or a Hook, with the warnings of the write (a Tessera extension).
  ChangedWebhook: updateWebhook.output,
  CreatedHook: createHook.output,
  RotatedWebhookSecret: rotateWebhookSecret.output,
  TestMessage: sendTestMessage.output,
  ErasureCounts: erasePersonData.output,
  EventExport: exportEventData.output,
};

type Page = { entries?: { data?: { item?: v.GenericSchema } } };

/**
 * Every answer's name beside the resources': the envelopes above and a <Resource>List for each list
 * of a named resource (a list item's own name, CommunityListItem or LeadItem, loses its Item).
 */
export function answerSchemas(resources: Record<string, v.GenericSchema>): Record<string, v.GenericSchema> {
  const names = new Map<v.GenericSchema, string>(
    Object.entries({ ...resources, ...envelopes }).map(([name, schema]) => [schema, name]),
  );
  const answers: Record<string, v.GenericSchema> = { ...envelopes };
  for (const { operation, status } of routes) {
    const output = operation.output;
    const item = (output as Page).entries?.data?.item;
    const itemName = item && names.get(item);
    if (status === 204 || names.has(output) || !itemName) continue;
    const name = `${itemName.replace(/(List)?Item$/, '')}List`;
    if (answers[name] && answers[name] !== output)
      throw new Error(`${name} would name two different answers: name one of them in envelopes.`);
    answers[name] = output;
    names.set(output, name);
  }
  return answers;
}
