export { listLeads } from './list-leads';
export { listSponsorLevels } from './list-sponsor-levels';
export { listSponsors } from './list-sponsors';
