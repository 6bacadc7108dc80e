// How an MCP answer names an operation a problem mentions: its tool name, from the one tool table.
import { byTitle, type NameOperation } from '../core/platform/mentions';
import { tools } from './tools';

let names: Map<string, string> | undefined;

export const toolOperationName: NameOperation = (operation) => {
  names ??= new Map(tools.map((t) => [t.operation.name, t.name]));
  // An operation no tool runs (a REST-only download) is named by its title.
  return names.get(operation.name) ?? byTitle(operation);
};
