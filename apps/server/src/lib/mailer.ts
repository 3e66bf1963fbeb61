import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema/index.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Every mail is written to the outbox first, so none is lost when SMTP fails; with SMTP_URL it is then
 * sent and marked, without it the mail is only logged (a developer reads links from the log).
 */
export function createMailer(opts: {
  db: Db;
  log: FastifyBaseLogger;
  smtpUrl: string | undefined;
  from: string;
}): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  return {
    async send(mail) {
      const [row] = await opts.db
        .insert(mailOutbox)
        .values({ ...mail, status: transport ? 'pending' : 'logged' })
        .returning({ id: mailOutbox.id });
      if (!transport || !row) {
        opts.log.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          'mail (no SMTP_URL: not sent)',
        );
        return;
      }
      try {
        await transport.sendMail({ from: opts.from, ...mail });
        await opts.db
          .update(mailOutbox)
          .set({ status: 'sent', sentAt: new Date() })
          .where(eq(mailOutbox.id, row.id));
      } catch (err) {
        opts.log.error({ err, to: mail.to }, 'mail sending failed');
        await opts.db
          .update(mailOutbox)
          .set({ status: 'failed', error: String(err) })
          .where(eq(mailOutbox.id, row.id));
      }
    },
  };
}
