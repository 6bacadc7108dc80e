export { getPass } from './get-pass';
export { listPassHolders } from './list-pass-holders';
export { listPasses } from './list-passes';
