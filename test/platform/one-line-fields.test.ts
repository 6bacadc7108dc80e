// Issue 50, item 4: every text field an operation or the import file takes is one-line, multi-line
// or a format that admits no control character (a UUID, an address, a time, a plain pattern), so a
// new field cannot slip through with line breaks or other control characters in it.
import { describe, expect, it } from 'vitest';
import { importFormat } from '../../core/import/format';
import { multiLinePattern, oneLinePattern } from '../../core/platform/schemas';
import { tools } from '../../mcp/tools';
import { routes } from '../../rest/routes';
import { operatorOperations } from '../../src/operator-operations';
import { textFields } from '../support/text-fields';

/** Strings no one-line or multi-line rule fits, and why. */
const exempt: Record<string, string> = {
  'import file.text': 'a whole JSON file, read by the import with its own checks of every string in it',
};

const operations = new Map(
  [...routes.map((r) => r.operation), ...tools.map((t) => t.operation), ...operatorOperations].map((op) => [
    op.name,
    op,
  ]),
);

describe('every text field', () => {
  it('of every operation input is one-line, multi-line or a plain format', () => {
    const unchecked: string[] = [];
    for (const [name, operation] of operations)
      for (const field of textFields(operation.input))
        if (field.kind === 'unchecked' && !exempt[`${name} ${field.path}`])
          unchecked.push(`${name} ${field.path}`);
    expect(unchecked).toEqual([]);
  });

  it('of the import file is one-line, multi-line or a plain format', () => {
    const unchecked = textFields(importFormat)
      .filter((field) => field.kind === 'unchecked')
      .map((field) => field.path);
    expect(unchecked).toEqual([]);
  });

  it('that is a name, a title or an address is one-line; a description, a note or an abstract multi-line', () => {
    const kinds = new Map<string, string>();
    for (const [name, operation] of operations)
      for (const field of textFields(operation.input)) kinds.set(`${name} ${field.path}`, field.kind);
    for (const field of [
      'createEvent name',
      'createEvent venue.address',
      'registerAttendees attendees[].firstName',
      'registerAttendees attendees[].lastName',
      'createOrder buyerName',
      'createTicketType name',
      'createSession title',
      'createSpeaker name',
      'createWebhook url',
      'createCommunity summary',
    ])
      expect(kinds.get(field), field).toBe('oneLine');
    for (const field of [
      'createTicketType description',
      'createSession summary',
      'createSpeaker bio',
      'createSubmission abstract',
      'updateLead note',
      'updateSignUp paymentInstructions',
      'reviewSubmission comment',
    ])
      expect(kinds.get(field), field).toBe('multiLine');
  });
});

describe('the one-line and multi-line patterns', () => {
  it('refuse C0 controls, DEL and the Unicode separators in one line, and keep every other character', () => {
    for (let code = 0; code < 0x20; code++)
      expect(oneLinePattern.test(`a${String.fromCharCode(code)}b`)).toBe(false);
    for (const c of ['\u007f', '\u2028', '\u2029']) expect(oneLinePattern.test(`a${c}b`)).toBe(false);
    expect(oneLinePattern.test('Zoë Ångström 🎟 — O’Brien')).toBe(true);
  });

  it('let a multi-line text hold LF, CRLF and tab, and refuse a lone CR and every other control', () => {
    expect(multiLinePattern.test('One\nTwo\r\nThree\tfour')).toBe(true);
    expect(multiLinePattern.test('One\rTwo')).toBe(false);
    for (let code = 0; code < 0x20; code++) {
      if (code === 0x09 || code === 0x0a || code === 0x0d) continue;
      expect(multiLinePattern.test(`a${String.fromCharCode(code)}b`)).toBe(false);
    }
    expect(multiLinePattern.test('a\u007fb')).toBe(false);
  });
});
