// Certificates of attendance, speaking and crewing, with their public verification address.

export { certificateIssued } from './certificate-messages';
export { certificateApiSchema, certificatePersonal, certificateSchema } from './certificate-view';
export { issueAttendanceCertificates } from './issue-attendance-certificates';
export { issueCertificate } from './issue-certificate';
export { listCertificates } from './list-certificates';
export { revokeCertificate } from './revoke-certificate';
export { newVerificationCode } from './verification-code';
export { type CertificateCheck, verifyCertificate } from './verify-certificate';
