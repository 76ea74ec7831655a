/**
 * The web terminal (issue 6): the console asks the server for a single-use token for the
 * caller's own code of a workgroup resource, opens a WebSocket to the gateway's web terminal
 * port (webssh_port) and sends the token as its first message. The gateway redeems the token
 * through the control channel (redeem_web_token) for the same grant the SSH proxy gets.
 *
 * Frames on the terminal WebSocket: binary frames carry terminal bytes both ways; text frames
 * carry the JSON messages below.
 */
import { z } from 'zod';
import { defineRoute } from './http';
import { WORKGROUP_MEMBERS } from './workgroup';

/** A token lives this long; it is spent by its first use. */
export const WEB_TERMINAL_TOKEN_TTL_SECONDS = 60;
/** The path of the gateway's terminal WebSocket. */
export const WEB_TERMINAL_PATH = '/terminal';

/**
 * Flow control up to the screen: a browser that says `ack: true` in its auth message reports
 * the output bytes its terminal has drawn (`ack` messages, at least every
 * {@link WEB_TERMINAL_ACK_BYTES}), and the gateway keeps at most
 * {@link WEB_TERMINAL_WINDOW_BYTES} of output sent but not yet drawn. So an output flood
 * (`cat /dev/urandom`) waits at the target instead of queueing in the browser, whose terminal
 * then answers Ctrl-C at once. Without `ack`, only the WebSocket's own buffer holds the gateway
 * back (the browser's network stack takes everything it is sent).
 */
export const WEB_TERMINAL_ACK_BYTES = 64 * 1024;
export const WEB_TERMINAL_WINDOW_BYTES = 512 * 1024;

export const WebTerminalTokenBodySchema = z.object({
  project_resource_id: z.number().int().positive(),
});
export type WebTerminalTokenBody = z.infer<typeof WebTerminalTokenBodySchema>;

export const WebTerminalTokenReplySchema = z.object({
  token: z.string(),
  /** `ws://<gateway host>:<webssh_port>/terminal` (the token is sent in the first message). */
  url: z.string(),
  expire_time: z.number().int(),
});
export type WebTerminalTokenReply = z.infer<typeof WebTerminalTokenReplySchema>;

const Size = {
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(1000),
};

/** Browser → gateway text frames. */
export const WebTerminalClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('auth'),
    token: z.string().min(1).max(128),
    ...Size,
    ack: z.boolean().optional(),
  }),
  z.object({ type: z.literal('resize'), ...Size }),
  /** Output bytes the browser's terminal has drawn since its last ack. */
  z.object({
    type: z.literal('ack'),
    bytes: z
      .number()
      .int()
      .min(1)
      .max(2 ** 31),
  }),
]);
export type WebTerminalClientMessage = z.infer<typeof WebTerminalClientMessageSchema>;

/** Gateway → browser text frames. */
export const WebTerminalServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), connection_id: z.number().int(), username: z.string() }),
  /**
   * The session is over: `code` is a catalogue code for a refusal, `SessionCut` when the
   * server cut it, `SessionEnded` when the shell exited; `reason`, on a cut, the catalogue code
   * of why (SessionCutFromConsole, TunnelExpire, AccessRevoked, …) when the server gave one;
   * `message` is English text (the detail a code's text lacks, e.g. what the target said), for
   * a reader that knows neither code.
   */
  z.object({
    type: z.literal('closed'),
    code: z.string(),
    message: z.string(),
    reason: z.string().optional(),
  }),
]);
export type WebTerminalServerMessage = z.infer<typeof WebTerminalServerMessageSchema>;

export const webTerminalRoutes = {
  createWebTerminalToken: defineRoute({
    method: 'POST',
    path: '/web_terminal/token',
    summary: 'A single-use, 60-second token opening the web terminal with the caller’s own code',
    access: WORKGROUP_MEMBERS,
    body: WebTerminalTokenBodySchema,
    reply: WebTerminalTokenReplySchema,
  }),
} as const;
