/**
 * Online connections (spec 1 §3 "Online connection", §7 "Dashboard and sessions"): the sessions
 * a gateway carries right now, listed, counted and cut.
 *
 * Who sees what (the server decides; the console only shows): every administrator role (1-4,
 * the dashboard's roles, whose online list offers Disconnect) sees and cuts every session of
 * the team; an ordinary member sees and cuts their own sessions and every session on a workgroup
 * they administer. Anything else answers as not found (ConnectionIDNotFound).
 */
import { z } from 'zod';
import {
  EpochSeconds,
  IdParamsSchema,
  OkReplySchema,
  optionalQueryNumber,
  pagedReply,
} from './common';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { ANY_MEMBER, defineRoute } from './http';

export const OnlineConnectionQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  /** A workgroup id. */
  q_project: optionalQueryNumber(z.number().int().positive()),
  /** A resource id (the workgroup detail's row counts a resource's sessions). */
  q_resource: optionalQueryNumber(z.number().int().positive()),
  /** A cluster id. */
  q_network_id: optionalQueryNumber(z.number().int().positive()),
});
export type OnlineConnectionQuery = z.infer<typeof OnlineConnectionQuerySchema>;

export const OnlineConnectionSchema = z.object({
  id: z.number().int(),
  /** The same id under the spec's second name (the dashboard cuts by connection_id). */
  connection_id: z.number().int(),
  account: z.object({ id: z.number().int(), name: z.string(), account: z.string() }),
  project_id: z.number().int().nullable(),
  project_name: z.string(),
  project_resource_id: z.number().int().nullable(),
  resource_id: z.number().int().nullable(),
  resource_name: z.string(),
  resource_ip_address: z.string(),
  network_id: z.number().int().nullable(),
  /** terminal, wetty, sftp, scp, mysql, postgresql (SESSION_WAYS); empty if none was said. */
  way: z.string(),
  client_ip_address: z.string(),
  /** 1 when the code runs under safe mode. */
  safe_mode: z.number().int(),
  create_time: EpochSeconds,
  /** Seconds the session has been open, as the server saw it when answering. */
  duration: z.number().int(),
  /** The session's code, masked as in the logs (the code itself logs in: never shown whole). */
  tunnel_code: z.string(),
  /** Its cluster's gateway: the address and version of the one serving it ('' when none). */
  host: z.string(),
  agent_version: z.string(),
  /** 1 for a web RDP session, which no gateway offers yet; and the gateway's web RDP port. */
  guacamole: z.number().int(),
  webrdp_port: z.number().int(),
});
export type OnlineConnection = z.infer<typeof OnlineConnectionSchema>;

export const DeleteAllConnectionsBodySchema = z.object({
  // A page of the dialog at most; the bound keeps the id list inside SQL parameter limits.
  connection_ids: z.array(z.number().int().positive()).min(1).max(1000),
});
export type DeleteAllConnectionsBody = z.infer<typeof DeleteAllConnectionsBodySchema>;

export const OnlineCountReplySchema = z.object({ count: z.number().int() });

export const connectionRoutes = {
  // The count route is accountRoutes.onlineCount (the header's first call); it counts what
  // listConnections lists.
  listConnections: defineRoute({
    method: 'GET',
    path: '/v1/tunnel_connection/list',
    summary: 'Online connections the caller may see, newest first',
    access: ANY_MEMBER,
    query: OnlineConnectionQuerySchema,
    reply: pagedReply(OnlineConnectionSchema),
  }),
  cutConnection: defineRoute({
    method: 'DELETE',
    path: '/tunnel_connection/:id',
    summary: 'Cut one online connection at its gateway (ConnectionIDNotFound when gone)',
    access: ANY_MEMBER,
    params: IdParamsSchema,
    reply: OkReplySchema,
  }),
  cutConnections: defineRoute({
    method: 'POST',
    path: '/tunnel_connection/delete_all',
    summary: 'Cut several online connections; those already gone or not the caller’s are skipped',
    access: ANY_MEMBER,
    body: DeleteAllConnectionsBodySchema,
    reply: z.object({ ok: z.literal(true), cut: z.number().int() }),
  }),
};
