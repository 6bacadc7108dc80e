// The operator's use cases (workspaces, keys, marking an order paid, a person's erasure) and the
// demonstration workspace: the only way into core/admin from other areas, rest, mcp and src.
export {
  expiryChoices,
  KeyRequestError,
  keyActivity,
  keyWorkspaceId,
  keyWorkspaceRefusals,
  listKeys,
} from './api-keys';
export { demoKey, ensureDemoWorkspace } from './demo-workspace';
export {
  erasePerson,
  erasePersonDataOperation as erasePersonData,
  erasePersonOperation,
} from './erase-person';
export { createKeyOperation, revokeKeyOperation } from './key-operations';
export { markOrderPaid, markOrderPaidOperation } from './mark-order-paid';
export {
  invokeAsOperator,
  newWorkspaceOperator,
  operatorContext,
  operatorRefusals,
  type WorkspaceRefusals,
} from './operator';
export { rekeyAllSecrets } from './rekey-all-secrets';
export { takeOrder, takeOrderOperation } from './take-order';
export { createWorkspaceOperation, findWorkspace, listWorkspaces, sampleSendsNoEmail } from './workspaces';
