// A person across the workspace, apart from any one event: erasure at their request. The erasure
// itself is core/admin's, shared with the operator's `tessera person erase`.
export { erasePersonDataOperation as erasePersonData } from '../admin/erase-person';
