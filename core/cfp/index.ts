export { callSchema } from './call-view';
export { changeSubmissionStatus } from './change-submission-status';
export { createSubmission } from './create-submission';
export { getCallForSpeakers } from './get-call';
export { getSubmission } from './get-submission';
export { listSubmissionReviews } from './list-reviews';
export { listSubmissions } from './list-submissions';
export { reviewSubmission } from './review-submission';
export { reviewPersonal, reviewSchema } from './review-view';
export {
  statusChangeSchema,
  submissionDetailSchema,
  submissionSchema,
  submissionSpeakerPersonal,
  submissionSpeakerSchema,
} from './submission-view';
export { updateCallForSpeakers } from './update-call';
export { updateSubmission } from './update-submission';
export { withdrawSubmission } from './withdraw-submission';
