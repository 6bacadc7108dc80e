export { getSubmission } from './get-submission';
export { listSubmissions } from './list-submissions';
