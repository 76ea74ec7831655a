/**
 * Web terminal tokens: what the console gets for opening one terminal with the caller's code.
 * Random (192 bits), valid for 60 s, spent by their first redemption, and kept in memory only
 * as their SHA-256 (a heap dump shows no usable token).
 *
 * Limits: tokens live in this replica's memory. The gateway redeems over its control channel,
 * which may be held by another replica when the server is scaled out; then the token is not
 * found and the member retries (a database or Redis store would lift this).
 */
import { WEB_TERMINAL_TOKEN_TTL_SECONDS } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { createExpiringMap } from '../../lib/expiring-map';

export interface WebTerminalTicket {
  tunnelId: number;
  networkId: number;
}

export interface WebTerminalTokens {
  issue(ticket: WebTerminalTicket): { token: string; expiresAt: number };
  /** The live ticket of this token, removed so it cannot be used again; null otherwise. */
  redeem(token: string): WebTerminalTicket | null;
}

export function createWebTerminalTokens(now: () => number = Date.now): WebTerminalTokens {
  const tickets = createExpiringMap<WebTerminalTicket>(WEB_TERMINAL_TOKEN_TTL_SECONDS * 1000, now);
  const hash = (token: string) => sha256Hex(`portcullis-web-terminal:${token}`);
  return {
    issue(ticket) {
      const token = randomToken(24);
      return { token, expiresAt: tickets.set(hash(token), ticket) };
    },
    redeem(token) {
      const key = hash(token);
      const ticket = tickets.get(key);
      tickets.delete(key);
      return ticket;
    },
  };
}

// One store per app: the route that issues and the control channel that redeems share it
// through the context they both hold, without widening AppContext for one feature.
const stores = new WeakMap<AppContext, WebTerminalTokens>();

export function webTerminalTokens(ctx: AppContext): WebTerminalTokens {
  let store = stores.get(ctx);
  if (!store) {
    store = createWebTerminalTokens();
    stores.set(ctx, store);
  }
  return store;
}

/** Replaces this app's store (tests give it a clock they move). */
export function setWebTerminalTokens(ctx: AppContext, store: WebTerminalTokens): void {
  stores.set(ctx, store);
}
