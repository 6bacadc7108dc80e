// Import files are held to the API's text rules and keep every key as sent, through the real
// command line: a NUL character or a lone surrogate in any string or key, or bytes that are not
// UTF-8, refuse the file naming each place (as the API refuses such a body with invalidBody);
// "__proto__", "constructor" and "prototype" are keys like any other: refused where the format or
// the event has no such key, kept where it has (a question keyed "constructor").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFile } from '../support/import-files';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';

let t: TestServer;
let workspaceId: string;
let key: string;
const dir = mkdtempSync(join(tmpdir(), 'tessera-import-text-'));

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Import text workspace'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t.close());

/** The documented example under slugs and keys of its own. */
function example(tag: string): any {
  const text = JSON.stringify(exampleFile())
    .replaceAll('-example"', `-${tag}"`)
    .replaceAll('"fjord-conf-2027"', `"${tag}-conf"`)
    .replaceAll('"fjord-meetup-june"', `"${tag}-june"`)
    .replaceAll('"fjord-devs"', `"${tag}-devs"`);
  return JSON.parse(text);
}

/** An object with these keys as JSON.parse makes it: "__proto__" an own key, not the prototype. */
const keyed = (entries: Record<string, unknown>, special: Record<string, unknown>) =>
  Object.assign(JSON.parse(JSON.stringify(special)), entries);
const own = (key: string, value: unknown) => JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value)}}`);

async function importAt(name: string, content: string | Buffer) {
  const path = join(dir, name);
  writeFileSync(path, content);
  return runTessera(['import', '--workspace', workspaceId, path, '--data', t.dataDir]);
}

const rows = async (table: 'events' | 'outbox' | 'attendees') =>
  Number(
    (
      await t.server.services.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** What a refused import must leave as it was: rows, messages and the change position. */
const state = async () => [
  await rows('events'),
  await rows('attendees'),
  await rows('outbox'),
  (await t.server.services.db.selectFrom('change_sequence').select('value').executeTakeFirstOrThrow()).value,
];

/** Imports a file that must be refused: its problems, after checking nothing was written. */
async function refused(name: string, content: string | Buffer): Promise<{ path: string; message: string }[]> {
  const before = await state();
  const run = await importAt(name, content);
  expect(run.code, run.stdout || run.stderr).toBe(2);
  const answer = JSON.parse(run.stderr);
  expect(answer.error).toBe('importRefused');
  expect(await state()).toEqual(before);
  return answer.problems;
}

describe('text an import file may hold', () => {
  it('refuses a name with a NUL character, storing nothing', async () => {
    const file = example('nul');
    file.events[0].name = 'Nul\u0000Name';
    expect(await refused('nul.json', JSON.stringify(file))).toEqual([
      { path: 'events[0].name', message: 'Text may not contain NUL characters.' },
    ]);
    // No row holds the name, with or without its NUL.
    const named = await t.server.services.db
      .selectFrom('events')
      .select('id')
      .where('name', 'like', 'Nul%')
      .execute();
    expect(named).toEqual([]);
  });

  it('refuses NUL characters and lone surrogates in any string or key, naming each place', async () => {
    const file = example('text');
    const event = file.events[0];
    event.name = 'Nul\u0000Name';
    event.orders[0].attendees[0].firstName = '\ud800';
    event.orders[0].attendees[1].answers = own('di\udfffet', 'none');
    event.leads[0].note = 'fine\u0000not';
    const text = JSON.stringify(file);
    // The file holds the escapes as the API's test sends them: \u0000 and \ud800 in plain ASCII.
    expect(text).toContain('Nul\\u0000Name');
    expect(text).toContain('"\\ud800"');
    const problems = await refused('text.json', text);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'events[0].name', message: 'Text may not contain NUL characters.' },
        {
          path: 'events[0].orders[0].attendees[0].firstName',
          message: 'Text contains a lone surrogate (not a Unicode character).',
        },
        {
          path: 'events[0].orders[0].attendees[1].answers["di\\udfffet"]',
          message: 'Text contains a lone surrogate (not a Unicode character).',
        },
        { path: 'events[0].leads[0].note', message: 'Text may not contain NUL characters.' },
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD', async () => {
    const file = example('bytes');
    file.events[0].name = 'Caf@';
    const [before, after] = JSON.stringify(file).split('Caf@') as [string, string];
    // "Café" with the é as a lone Latin-1 byte.
    const bytes = Buffer.concat([Buffer.from(`${before}Caf`), Buffer.from([0xe9]), Buffer.from(after)]);
    expect(await refused('latin1.json', bytes)).toEqual([
      { path: '', message: 'Not UTF-8: save the file as UTF-8.' },
    ]);
  });
});

describe('keys named __proto__, constructor or prototype', () => {
  it('are refused in answers where the event has no such question, like any unknown key', async () => {
    const file = example('proto-answers');
    const event = file.events[0];
    event.orders[0].attendees[0].answers = keyed({ diet: 'none' }, own('__proto__', 'vegetarian'));
    event.orders[0].attendees[1].answers = keyed({}, { constructor: 'none', prototype: 'none' });
    event.surveys[0].responses[0].answers = keyed({ overall: 5 }, own('__proto__', 1));
    const problems = await refused('proto-answers.json', JSON.stringify(file));
    expect(problems).toEqual([
      {
        path: 'events[0].orders[0].attendees[0].answers.__proto__',
        message: 'No question has the key "__proto__" in this event.',
      },
      {
        path: 'events[0].orders[0].attendees[1].answers.constructor',
        message: 'No question has the key "constructor" in this event.',
      },
      {
        path: 'events[0].orders[0].attendees[1].answers.prototype',
        message: 'No question has the key "prototype" in this event.',
      },
      {
        path: 'events[0].surveys[0].responses[0].answers.__proto__',
        message: 'No question of this survey has this key.',
      },
    ]);
  });

  it('are refused where the format has no such field or key: fields, modules, texts by language', async () => {
    const file = example('proto-fields');
    const event = file.events[0];
    Object.defineProperty(event, '__proto__', { value: { name: 'x' }, enumerable: true });
    event.modules = keyed({ budget: true }, own('__proto__', true));
    event.questions[0].label = keyed({ en: 'Diet' }, { constructor: 'Kosthold' });
    event.orders[0].buyer = keyed(event.orders[0].buyer, { prototype: 'x' });
    const problems = await refused('proto-fields.json', JSON.stringify(file));
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        'events[0].__proto__',
        'events[0].modules.__proto__',
        'events[0].questions[0].label.constructor',
        'events[0].orders[0].buyer.prototype',
      ].sort(),
    );
    const at = (path: string) => problems.find((p) => p.path === path)!.message;
    expect(at('events[0].__proto__')).toMatch(/Not a field/);
    expect(at('events[0].orders[0].buyer.prototype')).toMatch(/Not a field/);
    expect(at('events[0].modules.__proto__')).toMatch(/"__proto__" is not a key here/);
    expect(at('events[0].questions[0].label.constructor')).toMatch(/"constructor" is not a key here/);
  });

  it('are kept where they are keys of the file: questions keyed constructor and prototype, free answers', async () => {
    const file = example('proto-kept');
    const event = file.events[0];
    event.questions.push({ key: 'constructor', label: { en: 'Who built it?' }, kind: 'text' });
    event.orders[0].attendees[0].answers = { diet: 'none', constructor: 'Ola' };
    event.surveys[0].questions.push({ key: 'prototype', kind: 'yesNo', label: { en: 'A prototype?' } });
    event.surveys[0].responses[0].answers = { overall: 5, prototype: true };
    // A sponsor's questions are the sponsor's own: any key is kept as sent.
    event.leads[0].answers = keyed({ budget: 'yes' }, { ...own('__proto__', 'p'), constructor: 'c' });
    const run = await importAt('proto-kept.json', JSON.stringify(file));
    expect(run.code, run.stderr).toBe(0);

    const events = (await t.api('/events?limit=100', { key })).body.data;
    const eventId = events.find((e: any) => e.slug === 'fjord-conf-2027-proto-kept').eventId;
    const get = async (path: string) => (await t.api(`/events/${eventId}${path}`, { key })).body;
    const questions = (await get('/questions')).data;
    const builder = questions.find((q: any) => JSON.stringify(q.label).includes('Who built it?'));
    const attendees = (await get('/attendees?limit=100')).data;
    const ola = attendees.find((a: any) => a.answers && Object.keys(a.answers).includes(builder.questionId));
    expect(ola.answers[builder.questionId]).toBe('Ola');

    const [survey] = (await get('/surveys')).data;
    const results = (await get(`/surveys/${survey.surveyId}/results`)).results;
    expect(results.find((r: any) => r.questionId === 'prototype')).toMatchObject({ answered: 1, yes: 1 });

    const [lead] = (await get('/leads')).data;
    expect(Object.keys(lead.lead.answers).sort()).toEqual(['__proto__', 'budget', 'constructor']);
    expect(lead.lead.answers).toMatchObject({ budget: 'yes', constructor: 'c' });
    expect(Object.getOwnPropertyDescriptor(lead.lead.answers, '__proto__')?.value).toBe('p');
  });
});
