// Certificates of attendance, speaking and crewing, with their public verification address.
export { issueAttendanceCertificates } from './issue-attendance-certificates';
export { issueCertificate } from './issue-certificate';
export { listCertificates } from './list-certificates';
export { revokeCertificate } from './revoke-certificate';
