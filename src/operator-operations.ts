// The operations the operator runs at the command line (src/cli.ts), through invoke with the
// operator's context: no REST route or MCP tool reaches them. Listed once, so the app's start-up
// check holds their declarations as it holds the routes' and tools'.
import {
  createKeyOperation,
  createWorkspaceOperation,
  erasePersonOperation,
  markOrderPaidOperation,
  revokeKeyOperation,
  takeOrderOperation,
} from '../core/admin';
import { importFileOperation } from '../core/import';
import type { AnyOperation } from '../core/platform/pipeline/operation';

export const operatorOperations: readonly AnyOperation[] = [
  erasePersonOperation,
  markOrderPaidOperation,
  takeOrderOperation,
  importFileOperation,
  createKeyOperation,
  revokeKeyOperation,
  createWorkspaceOperation,
];
