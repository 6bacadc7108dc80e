export { getPass } from './get-pass';
export { holderPersonal, holderSchema } from './holder-view';
export { listPassHolders } from './list-pass-holders';
export { listPasses } from './list-passes';
export { passEventSchema, passSchema } from './pass-view';
