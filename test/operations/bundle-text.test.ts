// The service's bundle (bin/build.mjs) is text V8 keeps for the life of the process: one byte a
// character only when every character is Latin-1, else two (a dozen dashes once kept 5 MB of
// bundle as 10 MB of heap). The build writes what lies beyond as escapes that mean the same.
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { oneByteText } from '../../bin/build.mjs';
import { bundleFile, ensureBundle } from '../../bin/bundle.mjs';

describe('the bundle as text', () => {
  it('holds no character beyond Latin-1, and no comments or indentation', async () => {
    const text = readFileSync((await ensureBundle())!, 'utf8');
    expect(bundleFile).toMatch(/tessera\.mjs$/);
    expect(text.match(/[\u0100-\uffff]/g) ?? []).toEqual([]);
    // The packages' documentation comments were most of the text (7.5 MB before, 5.3 MB after).
    expect(text).not.toMatch(/\n {6}\* /);
  });

  it('writes each such character as an escape with the same meaning in strings, templates and expressions', () => {
    const source = `[
      'Bearer …', "a – b", \`<dd>–</dd> \${1 + 1}…\`, /['’]s/.test("it’s"), /😀/u.test('😀'), '😀'.length,
    ]`;
    const escaped = oneByteText(source);
    expect(escaped).not.toMatch(/[\u0100-\uffff]/);
    expect(escaped).toContain('\\u2026');
    expect(runInNewContext(escaped)).toEqual(runInNewContext(source));
    expect(runInNewContext(escaped)).toEqual(['Bearer …', 'a – b', '<dd>–</dd> 2…', true, true, 2]);
  });
});
