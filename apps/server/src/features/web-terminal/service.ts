/**
 * Issuing and redeeming web terminal tokens. Both ends run the code through resolveCode, the
 * same checks the SSH proxy's logins get: at issue with the console's address (so a refusal
 * shows in the console at once), and again at redemption with the address the gateway sees
 * (the one that counts: the allowed-IP list is about where the terminal connects from).
 */
import {
  AGENT_DEFAULT_PORTS,
  WEB_TERMINAL_PATH,
  type ResolvedCode,
  type WebTerminalTokenBody,
  type WebTerminalTokenReply,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import type { AuthContext } from '../../plugins/app/auth';
import { resolveCode } from '../codes/resolve';
import { clusterGateways } from '../workgroups/gateways';
import { webTerminalTokens } from './tokens';

/** The caller's own live code for this workgroup resource, with its value and cluster. */
async function ownCode(ctx: AppContext, accountId: number, projectResourceId: number) {
  const row = await ctx.db
    .selectFrom('tunnel')
    .innerJoin('project_resource', 'project_resource.id', 'tunnel.project_resource_id')
    .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
    .select(['tunnel.id', 'tunnel.code_sealed', 'resource.network_id', 'resource.os'])
    .where('tunnel.account_id', '=', accountId)
    .where('tunnel.project_resource_id', '=', projectResourceId)
    .where('tunnel.type', '=', 'normal')
    .where('tunnel.status', '=', 'enable')
    .orderBy('tunnel.id', 'desc')
    .executeTakeFirst();
  if (!row) throw new AppError('TunnelNotFound');
  // The web terminal is a shell: only Linux servers have one.
  if (row.os !== 'linux') throw new AppError('InvalidResource');
  return { tunnelId: row.id, code: ctx.sealer.open(row.code_sealed), networkId: row.network_id };
}

export async function issueWebTerminalToken(
  ctx: AppContext,
  auth: AuthContext,
  body: WebTerminalTokenBody,
  clientIp: string,
): Promise<WebTerminalTokenReply> {
  const own = await ownCode(ctx, auth.account.id, body.project_resource_id);
  await resolveCode(ctx, { networkId: own.networkId, code: own.code, clientIp });
  const agent = (await clusterGateways(ctx, [own.networkId])).get(own.networkId);
  if (!agent || agent.status !== 1 || !agent.host || !agent.features.includes('webssh'))
    throw new AppError('AgentError');
  const { token, expiresAt } = webTerminalTokens(ctx).issue({
    tunnelId: own.tunnelId,
    networkId: own.networkId,
  });
  // Plain ws: the gateway serves no TLS of its own yet (a console over https needs a proxy).
  const port = agent.ports.webssh_port || AGENT_DEFAULT_PORTS.webSsh;
  return {
    token,
    url: `ws://${agent.host}:${port}${WEB_TERMINAL_PATH}`,
    expire_time: Math.floor(expiresAt / 1000),
  };
}

/**
 * The gateway of `networkId` redeems a token the browser sent it: once, before it expires, on a
 * gateway of the code's cluster, and only while the code still passes every check.
 */
export async function redeemWebTerminalToken(
  ctx: AppContext,
  networkId: number,
  token: string,
  clientIp: string,
): Promise<ResolvedCode> {
  const ticket = webTerminalTokens(ctx).redeem(token);
  if (!ticket || ticket.networkId !== networkId) throw new AppError('TunnelNotFound');
  const tunnel = await ctx.db
    .selectFrom('tunnel')
    .select(['code_sealed'])
    .where('id', '=', ticket.tunnelId)
    .executeTakeFirst();
  if (!tunnel) throw new AppError('TunnelNotFound');
  const code = ctx.sealer.open(tunnel.code_sealed);
  return resolveCode(ctx, { networkId, code, clientIp });
}
