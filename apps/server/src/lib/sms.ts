/**
 * SMS providers. The default writes each message as JSON to `<dataDir>/outbox/sms`; a real
 * gateway implements the same interface.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from './crypto';
import { outboxDir } from './mailer';

export interface SmsProvider {
  send(mobile: string, text: string): Promise<void>;
}

export function createOutboxSms(dataDir: string): SmsProvider {
  const dir = outboxDir(dataDir, 'sms');
  return {
    async send(mobile, text) {
      await fs.mkdir(dir, { recursive: true });
      const name = `${Date.now()}-${randomToken(6)}.json`;
      const body = JSON.stringify({ mobile, text, time: Math.floor(Date.now() / 1000) });
      await fs.writeFile(path.join(dir, name), body, { mode: 0o600 });
    },
  };
}
