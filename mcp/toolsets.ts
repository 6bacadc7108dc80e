// Which toolset each tool belongs to, derived once from where its operation comes from: the core
// module of its area (core/events, core/sponsors, …). Automation subscriptions are core/webhooks'
// own, so they share the webhooks toolset; the e-mail log (core/mail) is read with the attendees (an
// invoice sent by e-mail and the PDFs of core/documents are finance's), a person's erasure
// (core/admin, shared with the operator's command) is the people toolset, and the workspace's Stripe
// connection (core/payments) is managed with the finance toolset. A test holds the toolsets to the REST API's areas.
import * as admin from '../core/admin';
import * as attendees from '../core/attendees';
import * as certificates from '../core/certificates';
import * as cfp from '../core/cfp';
import * as checkin from '../core/checkin';
import * as communities from '../core/communities';
import * as crew from '../core/crew';
import * as documents from '../core/documents';
import * as events from '../core/events';
import * as exportFiles from '../core/exports';
import * as finance from '../core/finance';
import * as logistics from '../core/logistics';
import * as mail from '../core/mail';
import * as orders from '../core/orders';
import * as passes from '../core/passes';
import * as payments from '../core/payments';
import * as programme from '../core/programme';
import * as sharekit from '../core/sharekit';
import * as sponsors from '../core/sponsors';
import * as surveys from '../core/surveys';
import * as tickets from '../core/tickets';
import * as waitingList from '../core/waiting-list';
import * as webhooks from '../core/webhooks';
import * as workspace from '../core/workspace';
import type { Tool } from './tool-table';
import { tools } from './tools';
import type { ToolsetName } from './toolset-choice';

// Sending an invoice is core/mail's (it queues the e-mail) but the finance area's, beside the invoices.
const { sendInvoice, ...mailLog } = mail;

const modules: Record<ToolsetName, object> = {
  workspace,
  events,
  tickets,
  orders,
  attendees: { ...attendees, ...mailLog },
  waitingList,
  people: admin,
  checkin,
  programme,
  sponsors,
  cfp,
  sharekit,
  passes,
  crew,
  logistics,
  surveys,
  certificates,
  finance: { ...finance, ...documents, sendInvoice, ...payments },
  communities,
  exports: exportFiles,
  webhooks,
};

const toolsetOfOperation = new Map<unknown, ToolsetName>();
for (const [name, module] of Object.entries(modules) as [ToolsetName, object][])
  for (const exported of Object.values(module)) {
    const earlier = toolsetOfOperation.get(exported);
    if (earlier && earlier !== name) throw new Error(`An export of core/${name} is also core/${earlier}'s.`);
    toolsetOfOperation.set(exported, name);
  }

const toolsetByTool = new Map<string, ToolsetName>();
for (const t of tools) {
  const toolset = toolsetOfOperation.get(t.operation);
  // A tool of a new core module: name the module in `modules` (and in the toolset catalogue).
  if (!toolset)
    throw new Error(`${t.name} belongs to no toolset: its operation is in no module of mcp/toolsets.ts.`);
  toolsetByTool.set(t.name, toolset);
}

export function toolsetOf(t: Tool): ToolsetName {
  return toolsetByTool.get(t.name)!;
}
