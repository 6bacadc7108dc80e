// The link of a waiting-list offer as its person receives it: read from the e-mail the test's SMTP
// server took (the mail sender sends it a moment after the offer's transaction).
import type { SmtpTestServer } from './smtp';

/** The offer's link e-mailed to an address; waits for the message (30 s at most: that ends a hang). */
export async function offerLinkSent(smtp: SmtpTestServer, email: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mail = smtp.received.find((m) => m.to.includes(email) && /A place for you/.test(m.subject));
    if (mail) return /https:\/\/\S+\/e\/\S+\/waiting\/[A-Za-z0-9_-]{32}/.exec(mail.text)![0];
    if (Date.now() > deadline) throw new Error(`no offer e-mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
