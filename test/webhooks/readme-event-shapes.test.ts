// The README says what each webhook event type's data holds, in a table: kept equal to the
// registry (core/webhooks/event-types.ts), so no sentence can claim a member every type carries
// when some do not (member.joined and member.left carry a community, not an event).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventTypes } from '../../core/webhooks/event-types';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The README's rows: type -> the members of its data, as written. */
function readmeShapes(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const [, type, members] of readme.matchAll(/^\s*\| `([a-z_]+\.[a-z_]+)` \| `\{ ([^}]*) \}` \|\s*$/gm))
    rows.set(
      type!,
      members!.split(',').map((m) => m.trim()),
    );
  return rows;
}

describe("the README's event types", () => {
  it('lists every type of the registry once, with exactly the members of its data, in order', () => {
    const written = readmeShapes();
    expect([...written.keys()].sort()).toEqual([...eventTypes.keys()].sort());
    for (const definition of eventTypes.values())
      expect(written.get(definition.type), definition.type).toEqual(Object.keys(definition.data.entries));
  });

  it('says data.event only of the types that carry it', () => {
    const withoutEvent = [...eventTypes.values()].filter((d) => !('event' in d.data.entries));
    expect(withoutEvent.map((d) => d.type).sort()).toEqual(['member.joined', 'member.left']);
    expect(readme).not.toMatch(/[Ee]very (event )?type carries `data\.event`/);
  });
});
