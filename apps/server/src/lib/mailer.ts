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
  /** Writes the mail to the outbox and returns; the SMTP delivery runs after, off the request path. */
  send(mail: Mail): Promise<void>;
  /**
   * Runs mail work after the answer (e.g. a reset link: its row and its mail), so how long a request
   * takes tells nothing about what was mailed. Failures are logged.
   */
  defer(what: string, work: () => Promise<void>): void;
  /** Waits for deferred work and deliveries in flight (before the database closes). */
  settle(): Promise<void>;
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
  const inFlight = new Set<Promise<void>>();
  const track = (what: string, work: () => Promise<void>) => {
    const running: Promise<void> = work()
      .catch((err: unknown) => opts.log.error({ err }, `${what} failed`))
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  };

  async function deliver(id: number, mail: Mail) {
    if (!transport) return;
    try {
      await transport.sendMail({ from: opts.from, ...mail });
      await opts.db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: new Date() })
        .where(eq(mailOutbox.id, id));
    } catch (err) {
      opts.log.error({ err, to: mail.to }, 'mail sending failed');
      await opts.db
        .update(mailOutbox)
        .set({ status: 'failed', error: String(err) })
        .where(eq(mailOutbox.id, id));
    }
  }

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
      // an SMTP server's pace must not hold the request that asked for the mail
      track('mail delivery', () => deliver(row.id, mail));
    },
    defer: track,
    async settle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}
