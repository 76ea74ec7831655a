/**
 * Why a web terminal session ended, in the reader's language, from the gateway's `closed` frame
 * (contract web-terminal.ts): its code as the title and a cut's reason (a code too) as the
 * detail, both texts of the error catalogue. Without a reason, the detail is what the gateway's
 * English text adds to the code's own text (what the target said), if anything; a code this
 * console does not know shows the gateway's text.
 */
import type { TFunction } from 'i18next';
import { ERRORS, type WebTerminalServerMessage } from '@portcullis/contract';
import { errorKey } from '../../../shared/i18n/errors';

type Closed = Extract<WebTerminalServerMessage, { type: 'closed' }>;

export interface ClosedText {
  title: string;
  detail: string | undefined;
}

export function closedText(closed: Closed, t: TFunction): ClosedText {
  const title = t(errorKey(closed.code), { defaultValue: closed.message });
  if (closed.reason) {
    return { title, detail: t(errorKey(closed.reason), { defaultValue: closed.reason }) };
  }
  const own = (ERRORS as Record<string, { en: string } | undefined>)[closed.code]?.en;
  if (!own || closed.message === own || closed.message === '') return { title, detail: undefined };
  const detail = closed.message.startsWith(`${own}: `)
    ? closed.message.slice(own.length + 2)
    : closed.message;
  return { title, detail };
}
