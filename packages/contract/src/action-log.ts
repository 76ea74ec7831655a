/**
 * The action log (spec 1 §2.9, §3 action log entry, §7 Logs): every session through a gateway,
 * newest first, 25 a page, with the spec's filters and an xlsx export. A member reads their
 * own sessions; the administrators who see the Operation Log read their team's.
 *
 * The entry never carries the code a session used, only its masked form (the code is a
 * credential; a log is passed around).
 */
import { z } from 'zod';
import { optionalQueryNumber } from './common';
import { PAGE_MAX, PAGE_SIZE_ACTION_LOG, PAGE_SIZE_MAX } from './constants';
import { defineRoute, roles } from './http';
import { MENU_VISIBILITY } from './roles';
import { FILE_OPS } from './security-mode';

/** Who reads the action log: the Operation Log menu's roles (spec 2 §6: 0, 1, 2, 4). */
export const ACTION_LOG_ROLES = MENU_VISIBILITY.operationLog;

const text = z.string().trim().max(200).optional();

export const SearchTunnelQuerySchema = z.object({
  page_index: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_ACTION_LOG),
  /** Sessions that started at or after this epoch second … */
  time_from: optionalQueryNumber(z.number().int().min(0)),
  /** … and before this one (the console pads a date range's end by a day). */
  time_end: optionalQueryNumber(z.number().int().min(0)),
  resource_id: optionalQueryNumber(z.number().int().min(0)),
  /** Any of account name, resource name, resource address or client address contains it. */
  keywords: text,
  /**
   * `terminal`, `wetty`, `sftp`, `mysql`…; `ssh` (a terminal's way before it had the spec's
   * name) reads as `terminal`.
   */
  way: z
    .string()
    .trim()
    .max(32)
    .optional()
    .transform((w) => (w === 'ssh' ? 'terminal' : w)),
  account_name: text,
  /** The resource's or the client's address contains it. */
  ip: text,
  resource_name: text,
  unsafe_mode: z
    .enum(['', '0', '1'])
    .optional()
    .transform((v) => (v === '0' ? 0 : v === '1' ? 1 : undefined)),
  /** `true`: the whole match (up to {@link ACTION_LOG_EXPORT_MAX}) as an xlsx file. */
  export: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
export type SearchTunnelQuery = z.infer<typeof SearchTunnelQuerySchema>;
/** The filters as the console writes them (before coercion; paging and export apart). */
export type SearchTunnelFilters = Omit<
  z.input<typeof SearchTunnelQuerySchema>,
  'page_index' | 'page_size' | 'export'
>;

/** The most rows an export holds; a wider match is cut at the newest this many. */
export const ACTION_LOG_EXPORT_MAX = 100_000;

export const ActionLogEntrySchema = z.object({
  way: z.string(),
  /** The code masked (`abcd****yz`); empty when the session had no code. */
  code: z.string(),
  resource_id: z.number().int().nullable(),
  resource_name: z.string(),
  resource_ip_address: z.string(),
  account_name: z.string(),
  avatar: z.string(),
  account_id: z.number().int(),
  agent_version: z.string(),
  /** Epoch seconds: the start and the end (0 while the session is open). */
  start_date: z.number().int(),
  date: z.number().int(),
  connection_id: z.number().int(),
  guacamole: z.number().int(),
  rdp_width: z.number().int(),
  rdp_height: z.number().int(),
  client_ip_address: z.string(),
  /** 1 when the session ran with the code's security mode off. */
  unsafe_mode: z.number().int(),
  /** Non-zero when a recording exists and the session has ended after it started. */
  play: z.number().int(),
  /**
   * File-log entries only (way sftp or scp, one per file a session opened): the direction and
   * the file name as the client named it. `parent_connection_id` is the session that moved it.
   */
  op: z.enum(FILE_OPS).optional(),
  filename: z.string().optional(),
  parent_connection_id: z.number().int().optional(),
});
export type ActionLogEntry = z.infer<typeof ActionLogEntrySchema>;

export const SearchTunnelReplySchema = z.object({
  total: z.number().int(),
  data: z.array(ActionLogEntrySchema),
});
export type SearchTunnelReply = z.infer<typeof SearchTunnelReplySchema>;

export const actionLogRoutes = {
  searchTunnel: defineRoute({
    method: 'GET',
    path: '/search_tunnel',
    summary: 'The action log: sessions, filtered and paged, or (export=true) as an xlsx file',
    access: roles(ACTION_LOG_ROLES),
    query: SearchTunnelQuerySchema,
    // No reply schema: with export=true the reply is a file; otherwise SearchTunnelReply.
  }),
} as const;

/** `HH:MM:SS` for a session's length; 00:00:00 when the end is not after the start. */
export function formatDuration(start: number, end: number): string {
  const total = end - start;
  if (!(total > 0)) return '00:00:00';
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `${pad(h)}:${pad(m)}:${pad(total % 60)}`;
}
