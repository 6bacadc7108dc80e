export { getMe } from './get-me';
export { getWorkspace } from './get-workspace';
