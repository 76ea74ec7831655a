/**
 * The words every proxy tells a member whose login the server refused or whose session it
 * ended (a cut in the console, a code deleted or expired): the SSH proxy in its banner, on the
 * session's channels and in its disconnect, the PostgreSQL proxy in its FATAL ErrorResponse,
 * the MySQL proxy in its ERR packet.
 */
import type { SessionRefusal } from '@portcullis/contract';

/** `Portcullis: The code does not exist (TunnelNotFound)`. */
export function refusalText(refusal: SessionRefusal): string {
  return `Portcullis: ${refusal.message} (${refusal.code})`;
}

/** `Portcullis: the session was ended (REASON)`, or without the parentheses when none is given. */
export function sessionEndedText(reason: string): string {
  return `Portcullis: the session was ended${reason ? ` (${reason})` : ''}`;
}
