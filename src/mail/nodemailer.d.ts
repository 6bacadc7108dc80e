// The part of nodemailer's API Tessera uses (the package ships no types).
declare module 'nodemailer' {
  export interface SentMessageInfo {
    messageId: string;
    accepted: string[];
    rejected: string[];
    response: string;
  }
  export interface Transporter {
    sendMail(options: Record<string, unknown>): Promise<SentMessageInfo>;
    close(): void;
  }
  export function createTransport(options: Record<string, unknown>): Transporter;
  const nodemailer: { createTransport: typeof createTransport };
  export default nodemailer;
}
