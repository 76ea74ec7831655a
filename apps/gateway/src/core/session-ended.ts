/**
 * The words every proxy tells a member whose session the server ended (a cut in the console, a
 * code deleted or expired): the SSH proxy on the session's channels and in its disconnect, the
 * PostgreSQL proxy in its FATAL ErrorResponse, the MySQL proxy in its ERR packet.
 */

/** `Portcullis: the session was ended (REASON)`, or without the parentheses when none is given. */
export function sessionEndedText(reason: string): string {
  return `Portcullis: the session was ended${reason ? ` (${reason})` : ''}`;
}
