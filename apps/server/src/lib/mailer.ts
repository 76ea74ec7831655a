/**
 * Outgoing mail. With SMTP_URL set, mail goes through that server (nodemailer); otherwise each
 * message is written as an .eml file to `<dataDir>/outbox/mail`, where an operator (or a test)
 * reads it. Both paths build the same RFC 5322 message.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { randomToken } from './crypto';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function outboxDir(dataDir: string, kind: 'mail' | 'sms'): string {
  return path.join(dataDir, 'outbox', kind);
}

export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const dir = outboxDir(options.dataDir, 'mail');
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await fs.mkdir(dir, { recursive: true });
      const name = `${Date.now()}-${randomToken(6)}.eml`;
      await fs.writeFile(path.join(dir, name), info.message as Buffer, { mode: 0o600 });
    },
  };
}
