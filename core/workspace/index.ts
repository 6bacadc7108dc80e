export { getMe, meSchema } from './get-me';
export { getWorkspace, workspaceSchema } from './get-workspace';
