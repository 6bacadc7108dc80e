// An event's attendees, orders, door scans or leads as one file (CSV or JSON): the list of the
// API, all of it, flat (attendees with their add-ons). Each dataset is read through its own list operation, so its scope, module,
// door and personal-data rules are the list's; leads follow the sponsor level's lead download.
import * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { logChange } from '../platform/pipeline/change-log';
import { loadEvent } from '../platform/pipeline/load-event';
import { inSteps } from '../platform/pipeline/long-read';
import { defineFileOperation } from '../platform/pipeline/operation';
import { canReadPeople } from '../platform/pipeline/personal-data';
import { columnsOf, tableFile } from '../platform/pipeline/table-file';
import { dateTime, int32, text, uuid } from '../platform/schemas';
import { closedLeadDownloads } from '../sponsors';
import { datasetNames, datasets } from './datasets';
import { type RowSource, readPage, rowPages } from './event-rows';

export const exportFormats = { json: 'application/json', csv: 'text/csv; charset=utf-8' } as const;

const withheldSponsor = v.object({
  sponsorId: uuid('The sponsor.'),
  name: text('Its name.'),
  reason: text('Why its leads are not in the file.'),
});

export const exportEventData = defineFileOperation({
  name: 'exportEventData',
  title: "Export an event's data",
  description:
    "Every row of an event's attendees, orders, check-ins or leads list as one JSON or CSV file (an assistant gets 50). Leads skip sponsors whose download is closed. Needs attendees:read, orders:read, checkins:read or sponsors:read, as the list.",
  scope: 'any',
  effect: 'read',
  extension: true,
  file: { formats: exportFormats },
  problems: ['missingScope', 'moduleOff', 'onlineEvent', 'peopleScope', 'notFound', 'leadDownloadClosed'],
  input: v.object({
    eventId: uuid('The event id.'),
    dataset: v.pipe(v.picklist(datasetNames), v.description('attendees, orders, check-ins or leads.')),
    format: v.optional(
      v.pipe(
        v.picklist(['json', 'csv']),
        v.description('json (the default) or csv (UTF-8, for spreadsheets).'),
      ),
    ),
    sponsorId: v.optional(
      uuid("Leads only: this sponsor's leads, refused unless its level's lead download is open today."),
    ),
  }),
  rules(input, errors) {
    if (input.sponsorId !== undefined && input.dataset !== 'leads')
      errors.add('sponsorId', 'Only the leads dataset takes a sponsorId.');
  },
  output: v.object({
    dataset: v.picklist(datasetNames),
    eventId: uuid('The event id.'),
    exportedUtc: dateTime('When the export began.'),
    personalData: v.pipe(
      v.picklist(['included', 'withheld']),
      v.description('withheld: the key lacks people:read, so names and emails are empty.'),
    ),
    data: v.pipe(
      v.array(v.record(v.string(), v.unknown())),
      v.description(
        "The rows: the items of the event's attendees (each with its addOns), orders, check-ins or leads list.",
      ),
    ),
    total: int32('Rows in the whole export.'),
    withheld: v.optional(
      v.pipe(v.array(withheldSponsor), v.description('Leads: sponsors whose lead download is closed.')),
    ),
    note: v.optional(text('To an assistant: data holds only the first rows; how to get the whole file.')),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const dataset = datasets[input.dataset];
    const format = input.format ?? 'json';
    const closed =
      input.dataset === 'leads' && input.sponsorId === undefined
        ? await closedLeadDownloads(ctx, event)
        : new Map<string, { name: string; reason: string }>();
    const source: RowSource = {
      dataset,
      list: input.sponsorId ? dataset.sponsorList! : dataset.list,
      input: { eventId: event.id, ...(input.sponsorId ? { sponsorId: input.sponsorId } : {}) },
      keep: (item) => !closed.has(String((item as { sponsor?: { sponsorId: string } }).sponsor?.sponsorId)),
    };
    // A refusal (scope, module, lead download) is the answer, not a broken file: one row is read
    // now to learn it. The file's rows are read later, in steps on a snapshot of their own.
    const reader: Ctx = { ...ctx, db: ctx.services.db };
    await readPage(reader, source, null, 1);
    const exportedUtc = ctx.clock.now().toISOString();
    const personalData = canReadPeople(ctx.actor) ? 'included' : 'withheld';
    await recordExport(
      ctx,
      event.id,
      `Exported ${input.dataset} as ${format} (personal data ${personalData})`,
    );
    const withheld = closed.size
      ? { withheld: [...closed].map(([sponsorId, s]) => ({ sponsorId, name: s.name, reason: s.reason })) }
      : {};
    const pages = () => inSteps(ctx, (snapshot) => rowPages(snapshot, source));
    const head = { dataset: input.dataset, eventId: event.id, exportedUtc, personalData };
    const fileName = `${event.slug || event.id}-${input.dataset}-${exportedUtc.slice(0, 10)}.${format}`;
    return tableFile({
      format,
      fileName,
      head,
      columns: columnsOf(dataset.item, dataset.amounts),
      pages,
      tail: (total) => ({ total, ...withheld }),
      async preview(maxRows) {
        const data: unknown[] = [];
        let total = 0;
        for await (const rows of pages()) {
          for (const row of rows) if (data.length < maxRows) data.push(row);
          total += rows.length;
        }
        const whole = `GET /api/v1/events/${event.id}/exports/${input.dataset}?format=csv, or tessera export --workspace ${ctx.actor.workspaceId} --event ${event.id} --dataset ${input.dataset} --to FILE`;
        const note =
          total > data.length
            ? `The first ${data.length} of ${total} rows; the whole file: ${whole}.`
            : undefined;
        return { ...head, data, total, ...withheld, ...(note ? { note } : {}) };
      },
    });
  },
});

/** Personal data leaving the service is worth a line in the activity log, as a change is. */
async function recordExport(ctx: Ctx, eventId: string, summary: string): Promise<void> {
  if (ctx.actor.demonstration) return;
  await ctx.services.writes.run((trx, moment) =>
    logChange(
      { ...ctx, db: trx, clock: moment },
      {
        action: 'exportEventData',
        resourceType: 'event',
        resourceId: eventId,
        summary,
      },
    ),
  );
}
