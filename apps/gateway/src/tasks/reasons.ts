/**
 * Short machine words a connectivity test answers with (TaskResult.reason). They name the
 * class of failure only: never a server message, which can echo the user name or worse.
 */
export type FailureReason =
  | 'auth_failed'
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'bad_database'
  | 'bad_key'
  | 'protocol_error'
  /** The target's SSH host key is not the one pinned for the resource. */
  | 'host_key_changed'
  /**
   * The resource requires TLS towards the database (`tls` require or verify) and the database
   * offers none, or its certificate was not accepted (another CA, another name, expired); or
   * the TLS handshake itself failed (no common version, a client certificate demanded), which
   * a session meets too since it uses TLS whenever the database offers it.
   */
  | 'tls_failed'
  | 'error';

const NETWORK_REASONS: Record<string, FailureReason> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  EACCES: 'unreachable',
  EPERM: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EAI_FAIL: 'unreachable',
  EAI_NONAME: 'unreachable',
  EPIPE: 'unreachable',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
};

/** The reason for a socket-level error (refused, unreachable, timeout), or undefined. */
export function networkReason(err: unknown): FailureReason | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? NETWORK_REASONS[code] : undefined;
}
