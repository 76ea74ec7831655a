/**
 * Terminal recordings (spec 1 §2.9 and §7 Logs): every terminal session through a gateway is
 * recorded as asciicast v2 (https://docs.asciinema.org/manual/asciicast/v2/): a header line
 * `{"version":2,"width":W,"height":H,"timestamp":T,"env":{…}}`, then one JSON array per line,
 * `[seconds, "o" | "i" | "r", data]` (output, input, resize to "WxH").
 *
 * Input events are audit data (what was typed, passwords at a prompt included): the download
 * keeps them only for {@link INPUT_VIEWER_ROLES}; every other reader gets output and resizes.
 */
import { z } from 'zod';
import { IdParamsSchema, OkReplySchema, optionalQueryNumber } from './common';
import { defineRoute, roles } from './http';
import type { Role } from './roles';

/** Who may download a recording: the Operation Log's roles (spec 2 §6: 0, 1, 2, 4). */
export const RECORDING_READER_ROLES = [0, 1, 2, 4] as const satisfies readonly Role[];

/**
 * Who sees typed input: the team's administrator and its audit and security administrators.
 * An ordinary member downloads their own sessions without it (a password typed at a prompt
 * that did not echo stays out of a file that is easily passed around).
 */
export const INPUT_VIEWER_ROLES: readonly Role[] = [1, 2, 4];

/**
 * The most one session's recording holds. A bulk transfer through exec (`ssh host 'tar c .'`)
 * would otherwise fill the gateway's disk and the storage: the recorder notes the limit in the
 * recording and stops there; the session itself goes on. The server refuses anything beyond
 * this plus {@link RECORDING_SLACK_BYTES} (the closing note, a last partial event).
 */
export const RECORDING_MAX_BYTES = 256 * 1024 * 1024;
export const RECORDING_SLACK_BYTES = 1024 * 1024;

export const CAST_EVENT_TYPES = ['o', 'i', 'r'] as const;
export type CastEventType = (typeof CAST_EVENT_TYPES)[number];

export const CastHeaderSchema = z.object({
  version: z.literal(2),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  timestamp: z.number().int().optional(),
  env: z.record(z.string(), z.string()).optional(),
});
export type CastHeader = z.infer<typeof CastHeaderSchema>;

export const CastEventSchema = z.tuple([z.number().min(0), z.enum(CAST_EVENT_TYPES), z.string()]);
export type CastEvent = z.infer<typeof CastEventSchema>;

/** The spec's query; the connection id alone picks the session, the rest is accepted. */
export const DownloadTunnelLogQuerySchema = z.object({
  connection_id: z.coerce.number().int().positive(),
  way: z.string().max(32).optional(),
  code: z.string().max(64).optional(),
  start_time: optionalQueryNumber(z.number().int()),
});
export type DownloadTunnelLogQuery = z.infer<typeof DownloadTunnelLogQuerySchema>;

/**
 * `check=1` only asks (OSSFileArchived when the recording is in the archive tier); without it
 * the restore starts (OSSFileRestoring until it is ready). `{ ok: true }`: ready to download.
 */
export const UnfreezeTunnelLogQuerySchema = z.object({
  connection_id: z.coerce.number().int().positive(),
  way: z.string().max(32).optional(),
  code: z.string().max(64).optional(),
  check: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

/**
 * Who may watch a live terminal session: the dashboard's roles (spec 1 §2.5, Monitor); a
 * session that has ended is no longer theirs to read (the recording readers download it).
 */
export const MONITOR_ROLES = [1, 2, 3, 4] as const satisfies readonly Role[];

/**
 * The ways whose sessions have a terminal: Monitor watches them (spec 1 §2.5), and security
 * mode's command lists govern them.
 */
export const TERMINAL_WAYS: readonly string[] = ['terminal', 'wetty'];

/** Most recording bytes one monitor answer carries; `more` says when another should follow. */
export const MONITOR_CHUNK_BYTES = 1024 * 1024;

export const MonitorQuerySchema = z.object({
  /** The stored recording's byte to read from: 0 first, then each answer's `offset`. */
  offset: z.coerce.number().int().min(0).default(0),
});

export const MonitorReplySchema = z.object({
  /** The session is still online (once false, `cast` holds the last of it). */
  live: z.boolean(),
  /** Where the next call starts. */
  offset: z.number().int(),
  /**
   * Whole asciicast v2 lines from the asked offset (the header first at 0; for a long session,
   * then only its last 256 KiB), output and resizes only (never typed input); '' when nothing
   * new arrived (the gateway sends about once a second).
   */
  cast: z.string(),
  /** More than one answer's worth was waiting: ask again at once. */
  more: z.boolean(),
});
export type MonitorReply = z.infer<typeof MonitorReplySchema>;

export const recordingRoutes = {
  monitorConnection: defineRoute({
    method: 'GET',
    path: '/v1/tunnel_connection/:id/monitor',
    summary: 'Watch an online terminal session: its recording from an offset, as it arrives',
    access: roles(MONITOR_ROLES),
    params: IdParamsSchema,
    query: MonitorQuerySchema,
    reply: MonitorReplySchema,
  }),
  downloadTunnelLog: defineRoute({
    method: 'GET',
    path: '/download_tunnel_log',
    summary: 'A terminal session’s recording as an asciicast v2 (.cast) file',
    access: roles(RECORDING_READER_ROLES),
    query: DownloadTunnelLogQuerySchema,
  }),
  unfreezeTunnelLog: defineRoute({
    method: 'GET',
    path: '/unfreeze_tunnel_log',
    summary: 'Whether a recording is ready to download; restores an archived one',
    access: roles(RECORDING_READER_ROLES),
    query: UnfreezeTunnelLogQuerySchema,
    reply: OkReplySchema,
    // Without `check` it starts a restore from the archive tier (a state change).
    changesState: true,
  }),
} as const;
