// The start-up check of declarations (core/platform/pipeline/declaration-check.ts) over what this
// process may run, with how each operation is reached: the server checks its routes, tools and the
// commands' operations before it listens; the command line checks its own operations before any
// command runs (without loading the server, Koa or the MCP SDK).
import * as cfp from '../core/cfp';
import * as checkin from '../core/checkin';
import * as crew from '../core/crew';
import { exportEventData } from '../core/exports';
import * as finance from '../core/finance';
import {
  checkDeclarations,
  type Exposure,
  type ModuleArea,
} from '../core/platform/pipeline/declaration-check';
import type { AnyOperation } from '../core/platform/pipeline/operation';
import * as programme from '../core/programme';
import * as sharekit from '../core/sharekit';
import * as sponsors from '../core/sponsors';
import * as surveys from '../core/surveys';
import { operatorOperations } from './operator-operations';

/** The areas an organiser switches off, by their index: what each exports is theirs. */
const areas: Record<ModuleArea, object> = {
  checkin,
  programme,
  cfp,
  crew,
  surveys,
  sharekit,
  sponsors,
  finance,
};
const areaOf = new Map<unknown, ModuleArea>();
for (const [area, exports] of Object.entries(areas) as [ModuleArea, object][])
  for (const exported of Object.values(exports)) areaOf.set(exported, area);

/** The operations the command line runs through invoke: the operator's, and the export. */
export const commandOperations: AnyOperation[] = [...operatorOperations, exportEventData];

/**
 * Throws, naming every fault, when an operation's declaration cannot be honoured or does not fit
 * how it is reached: `byKeys` are those a route or a tool runs, `patched` those REST runs as PATCH.
 */
export function checkOperations(
  operations: Iterable<AnyOperation>,
  reached: { byKeys?: Iterable<AnyOperation>; patched?: Iterable<AnyOperation> } = {},
) {
  const byKeys = new Set(reached.byKeys);
  const patched = new Set(reached.patched);
  checkDeclarations(
    operations,
    (operation): Exposure => ({
      byKeys: byKeys.has(operation),
      partialUpdate: patched.has(operation),
      area: areaOf.get(operation),
    }),
  );
}
