// One emitter per resource change (issue 23, item 2): every webhook event type has exactly one
// emitter (found in the `<resource>-messages.ts` files of core), nothing else builds or records a
// message, and the body each emitter records for real rows (from the example import and a sample
// workspace) is accepted by its type's published schemas: the signed body endpoints receive, and the
// body automation subscriptions receive, made as the dispatcher makes it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import ts from 'typescript';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorContext } from '../../core/admin/operator';
import { attendeeQuery } from '../../core/attendees/attendee-view';
import { crewOnShifts, shiftsOfCrew } from '../../core/crew/assignments';
import { crewMemberQuery, shiftQuery } from '../../core/crew/crew-rows';
import { importFile } from '../../core/import/import-file';
import { orderQuery } from '../../core/orders/order-query';
import type { Ctx } from '../../core/platform/context';
import type { MessageEmitter } from '../../core/platform/storage/message-emitter';
import { leadQuery } from '../../core/sponsors/lead-view';
import { eventType, hookBody, hookBodySchema, signedBodySchema } from '../../core/webhooks/event-types';
import type { Db } from '../../db/connect';
import { type WebhookEventType, webhookEventTypes } from '../../db/values';
import { exampleFile } from '../support/import-files';
import { outbox } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const root = resolve(import.meta.dirname, '..', '..');
const sourcesOf = (folder: string) =>
  (readdirSync(join(root, folder), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${folder}/${f.split(sep).join('/')}`)
    .sort();
const sources = ['core', 'db', 'src', 'rest', 'mcp'].flatMap(sourcesOf);
const emitterFiles = sourcesOf('core').filter((f) => f.endsWith('-messages.ts'));

type AnyEmitter = MessageEmitter<WebhookEventType, unknown>;

const isEmitter = (value: unknown): value is AnyEmitter =>
  typeof value === 'object' &&
  value !== null &&
  (webhookEventTypes as readonly unknown[]).includes((value as AnyEmitter).type) &&
  typeof (value as AnyEmitter).message === 'function' &&
  typeof (value as AnyEmitter).emit === 'function';

/** Every emitter the `-messages.ts` files export, each once, with where it is declared. */
async function findEmitters(): Promise<Map<AnyEmitter, string>> {
  const found = new Map<AnyEmitter, string>();
  for (const file of emitterFiles) {
    const exports: Record<string, unknown> = await import(join(root, file));
    for (const [name, value] of Object.entries(exports))
      if (isEmitter(value) && !found.has(value)) found.set(value, `${file}: ${name}`);
  }
  return found;
}

let emitters: Map<AnyEmitter, string>;
beforeAll(async () => {
  emitters = await findEmitters();
});

describe('one emitter per event type', () => {
  it("every type (the spec's 22 and the marked extensions) has exactly one emitter, and no emitter has another type", () => {
    const byType = new Map<string, string[]>();
    for (const [emitter, where] of emitters)
      byType.set(emitter.type, [...(byType.get(emitter.type) ?? []), where]);
    for (const type of webhookEventTypes) expect(byType.get(type) ?? [], type).toHaveLength(1);
    expect([...byType.keys()].sort()).toEqual([...webhookEventTypes].sort());
  });

  it('only the emitters record messages: the outbox is written through messageEmitter alone', () => {
    const importsOf = (file: string) =>
      ts
        .preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
        .importedFiles.map((f) => f.fileName);
    const writers = sources.filter((f) => importsOf(f).some((i) => i.endsWith('/outbox')));
    expect(writers).toEqual(sources.filter((f) => f.endsWith('/message-emitter.ts')));
    const declaring = sources.filter((f) => /\bmessageEmitter\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(declaring.filter((f) => !f.endsWith('-messages.ts'))).toEqual([]);
  });
});

describe('each emitted body against its published schema', () => {
  let t: TestServer;
  let imported: { workspaceId: string; ctx: Ctx };
  let sample: { workspaceId: string; ctx: Ctx };

  beforeAll(async () => {
    t = await startTestServer();
    const open = async (name: string, withSample: boolean) => {
      const { workspaceId } = await t.workspace(name, withSample);
      return { workspaceId, ctx: await operatorContext(t.server.services, workspaceId) };
    };
    imported = await open('Emitters: the example import', false);
    sample = await open('Emitters: sample data', true);
    await importFile(imported.ctx, JSON.stringify(exampleFile()));
  });
  afterAll(async () => t?.close());

  const db = (): Db => t.server.services.db;
  const eventIds = async (workspaceId: string) =>
    (await db().selectFrom('events').select('id').where('workspace_id', '=', workspaceId).execute()).map(
      (e) => e.id,
    );
  const eventOf = (id: string) =>
    db().selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** The first row of a table of message-only resources in the imported workspace. */
  const importedRow = async (
    table: 'stays' | 'travel' | 'expense_claims' | 'certificates' | 'published_content',
  ): Promise<{ event_id: string }> =>
    db()
      // One table's query stands for all five: each has an event_id, which is all this reads.
      .selectFrom(table as 'stays')
      .selectAll()
      .where('event_id', 'in', await eventIds(imported.workspaceId))
      .orderBy('id')
      .executeTakeFirstOrThrow();

  // Each type's change, made of real rows; typed by type so a new type needs its own here.
  const attendee = async () => {
    const row = await attendeeQuery(db())
      .where('attendees.event_id', 'in', await eventIds(imported.workspaceId))
      .orderBy('attendees.id')
      .executeTakeFirstOrThrow();
    return { event: await eventOf(row.event_id), attendee: row };
  };
  const shift = async () => {
    const events = await eventIds(imported.workspaceId);
    const row = await shiftQuery(db()).where('shifts.event_id', 'in', events).executeTakeFirstOrThrow();
    const member = await crewMemberQuery(db())
      .where('crew_members.event_id', 'in', events)
      .executeTakeFirstOrThrow();
    return {
      event: await eventOf(row.event_id),
      shift: row,
      shiftCrewIds: (await crewOnShifts(db(), [row.id])).get(row.id)!,
      crewMember: member,
      memberShiftIds: (await shiftsOfCrew(db(), [member.id])).get(member.id)!,
    };
  };
  const withEvent = async (key: string, row: { event_id: string }) => ({
    event: await eventOf(row.event_id),
    [key]: row,
  });
  const inImport = async (...made: unknown[]) => ({ ctx: imported.ctx, changes: made });
  // An order of the import stands for each order message's change (one schema, the order as it is).
  const order = async (status: 'paid') => {
    const row = await orderQuery(db())
      .where('orders.event_id', 'in', await eventIds(imported.workspaceId))
      .where('orders.status', '=', status)
      .executeTakeFirstOrThrow();
    return inImport({ event: await eventOf(row.event_id), order: row });
  };
  const stay = async () => inImport(await withEvent('stay', await importedRow('stays')));
  const claim = async () => inImport(await withEvent('claim', await importedRow('expense_claims')));
  const member = async () => {
    const row = await db()
      .selectFrom('community_members')
      .selectAll()
      .where('workspace_id', '=', imported.workspaceId)
      .executeTakeFirstOrThrow();
    const community = await db()
      .selectFrom('communities')
      .selectAll()
      .where('id', '=', row.community_id)
      .executeTakeFirstOrThrow();
    return inImport({ community, member: row });
  };
  const changes: Record<WebhookEventType, () => Promise<{ ctx: Ctx; changes: unknown[] }>> = {
    'attendee.registered': async () => inImport(await attendee()),
    'attendee.updated': async () => inImport(await attendee()),
    'attendee.cancelled': async () => inImport(await attendee()),
    'attendee.erased': async () => inImport(await attendee()),
    'order.paid': async () => order('paid'),
    'order.approved': async () => order('paid'),
    'order.declined': async () => order('paid'),
    'checkin.created': async () => {
      const checkIn = await db()
        .selectFrom('check_ins')
        .selectAll()
        .where('workspace_id', '=', sample.workspaceId)
        .where('result', '=', 'welcome')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const door = await db()
        .selectFrom('doors')
        .selectAll()
        .where('id', '=', checkIn.door_id)
        .executeTakeFirstOrThrow();
      const row = await attendeeQuery(db())
        .where('attendees.id', '=', checkIn.attendee_id)
        .executeTakeFirstOrThrow();
      return {
        ctx: sample.ctx,
        changes: [{ event: await eventOf(checkIn.event_id), checkIn, door, attendee: row }],
      };
    },
    'feedback.given': async () => {
      const events = await eventIds(imported.workspaceId);
      const answer = await db()
        .selectFrom('survey_responses')
        .innerJoin('surveys', 'surveys.id', 'survey_responses.survey_id')
        .selectAll('survey_responses')
        .select('surveys.event_id')
        .where('surveys.event_id', 'in', events)
        .executeTakeFirstOrThrow();
      const rating = await db()
        .selectFrom('session_ratings')
        .selectAll()
        .where('event_id', 'in', events)
        .executeTakeFirstOrThrow();
      return inImport(await withEvent('answer', answer), await withEvent('rating', rating));
    },
    'lead.captured': async () => {
      const lead = await leadQuery(db())
        .where('leads.event_id', 'in', await eventIds(imported.workspaceId))
        .executeTakeFirstOrThrow();
      return inImport(await withEvent('lead', lead));
    },
    'certificate.issued': async () =>
      inImport(await withEvent('certificate', await importedRow('certificates'))),
    'content.published': async () =>
      inImport(await withEvent('content', await importedRow('published_content'))),
    'stay.requested': stay,
    'stay.assigned': stay,
    'stay.changed': stay,
    'stay.cancelled': stay,
    'member.joined': member,
    'member.left': member,
    'travel.changed': async () => inImport(await withEvent('travel', await importedRow('travel'))),
    'claim.submitted': claim,
    'claim.approved': claim,
    'claim.paid': claim,
    'shift.signed_up': async () => inImport(await shift()),
    'shift.dropped': async () => inImport(await shift()),
  };

  /** The stored messages of both workspaces. */
  const stored = async () => [
    ...(await outbox(t, imported.workspaceId)),
    ...(await outbox(t, sample.workspaceId)),
  ];
  const problemsOf = (type: string, payload: any, messageId: string) => {
    const definition = eventType(type as WebhookEventType);
    return [
      v.safeParse(signedBodySchema(definition), payload),
      v.safeParse(hookBodySchema(definition), hookBody(messageId, payload)),
    ].flatMap((checked, i) =>
      checked.success
        ? []
        : checked.issues.map(
            (issue) => `${type} ${i ? 'hook' : 'signed'} ${v.getDotPath(issue)}: ${issue.message}`,
          ),
    );
  };

  it('the messages the import recorded are accepted by their types', async () => {
    const messages = await stored();
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.flatMap((m) => problemsOf(m.type, m.payload, m.messageId))).toEqual([]);
  });

  it('every emitter, given real rows, records a body its type accepts', async () => {
    const before = new Set((await stored()).map((m) => m.id));
    for (const emitter of emitters.keys()) {
      const { ctx, changes: made } = await changes[emitter.type]();
      await db()
        .transaction()
        .execute((trx) => emitter.emitEach({ ...ctx, db: trx }, made));
    }
    const emitted = (await stored()).filter((m) => !before.has(m.id));
    expect(new Set(emitted.map((m) => m.type))).toEqual(new Set(webhookEventTypes));
    expect(emitted.flatMap((m) => problemsOf(m.type, m.payload, m.messageId))).toEqual([]);
  });
});
