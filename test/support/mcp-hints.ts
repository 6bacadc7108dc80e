// A tool's safety hints as a client following the MCP specification reads them: tools/list sends
// only the hints that differ from the defaults, and a read-only tool is neither destructive nor
// anything but idempotent.
import { type Hints, hintDefaults } from '../../mcp/tool-table';

export function hintsOf(tool: { annotations?: Partial<Hints> & Record<string, unknown> }): Hints {
  const sent = { ...hintDefaults, ...(tool.annotations ?? {}) } as Hints;
  if (sent.readOnlyHint) return { ...sent, destructiveHint: false, idempotentHint: true };
  return sent;
}
