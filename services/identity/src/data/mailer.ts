import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Logger } from '@frametext/service-kit';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/**
 * Without SMTP: each message becomes an RFC 822 .eml file in `dir` (open it with any mail client). Mail holds
 * sign-in links, so the folder and its files are readable by their owner only.
 */
export function mailboxMailer(dir: string, from: string, logger: Logger): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await composer.sendMail({ from, ...message });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // A folder made by an older version (or by hand) is closed too.
      await chmod(dir, 0o700);
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ file, to: message.to, subject: message.subject }, 'mail written to the local mailbox');
    },
  };
}
