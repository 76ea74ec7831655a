/**
 * Downloads of a workgroup for the caller: its resources as an xlsx file (never a credential nor
 * a code), and an Ansible INI inventory of its Linux servers in which every host is reached
 * through its cluster's gateway SSH proxy with the caller's own code as the user.
 *
 * Limits: only Linux servers go into the inventory (Windows hosts are not managed over SSH, and
 * databases are not hosts); a server without a live code of the caller, or whose cluster never
 * reported a gateway address, is listed as a comment saying why. Everything written into the
 * inventory is checked or reduced to a safe alphabet first, so nothing a user typed (names) or
 * a gateway reported (its host) can add lines or variables to it.
 */
import ExcelJS from 'exceljs';
import { CODE_PATTERN, RESOURCE_TYPES, type ResourceOs } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import type { XlsxCell } from '../../lib/report';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { loginsOf } from '../resources/service';
import { findVisibleProject, reachableResource } from './access';
import { gatewayPort, clusterGateways } from './gateways';
import { joinRows } from './resources';
import { grantedUsernames, resourceUsernames, type ProjectResourceJoin } from './view';

async function allResources(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
): Promise<ProjectResourceJoin[]> {
  const links = await ctx.db
    .selectFrom('project_resource')
    .innerJoin('resource', 'resource.id', 'project_resource.resource_id')
    .selectAll('project_resource')
    .where('project_resource.project_id', '=', projectId)
    .where(reachableResource(auth.company.id))
    .orderBy('resource.name')
    .orderBy('resource.id')
    .execute();
  return joinRows(ctx, links);
}

export async function exportWorkgroupResources(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
): Promise<{ file: Buffer; projectId: number }> {
  const project = await findVisibleProject(ctx, auth, projectId);
  const rows = await allResources(ctx, auth, project.id);
  const logins = await loginsOf(
    ctx,
    rows.map((r) => r.resource.id),
  );
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('resources');
  sheet.addRow(['Name', 'Type', 'Address', 'Port', 'Cluster', 'Login users', 'Databases']).font = {
    bold: true,
  };
  for (const { projectResource, resource, network } of rows) {
    const users = grantedUsernames(
      projectResource,
      resourceUsernames(resource, logins.get(resource.id) ?? []),
    );
    // Text as typed, as text cells (XlsxCell says why no quote prefix).
    const row: XlsxCell[] = [
      resource.name,
      RESOURCE_TYPES[resource.os as ResourceOs],
      resource.ip_address,
      resource.port,
      network.name,
      users.join(';'),
      resource.databases,
    ];
    sheet.addRow(row);
  }
  sheet.columns.forEach((c) => (c.width = 24));
  return { file: Buffer.from(await book.xlsx.writeBuffer()), projectId: project.id };
}

/** Reduces a name to what Ansible accepts without quoting or warnings. */
function safeName(text: string, allowed: RegExp): string {
  return text.replace(allowed, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
}

function hostAlias(name: string, resourceId: number, used: Set<string>): string {
  let alias = safeName(name, /[^A-Za-z0-9.-]/g) || `host-${resourceId}`;
  if (used.has(alias)) alias = `${alias}-${resourceId}`;
  used.add(alias);
  return alias;
}

/** Group names are identifiers: letters, digits and underscores, not starting with a digit. */
function groupName(name: string, projectId: number): string {
  const base = safeName(name, /[^A-Za-z0-9_]/g);
  if (!base) return `workgroup_${projectId}`;
  return /^\d/.test(base) ? `workgroup_${base}` : base;
}

export async function ansibleInventory(
  ctx: AppContext,
  auth: AuthContext,
  projectId: number,
  type: string,
): Promise<{ text: string; projectId: number }> {
  if (type !== 'ansible') throw new AppError('HostsTypeError');
  const project = await findVisibleProject(ctx, auth, projectId);
  const servers = (await allResources(ctx, auth, project.id)).filter(
    (r) => r.resource.os === 'linux',
  );
  const codes = servers.length
    ? await ctx.db
        .selectFrom('tunnel')
        .select(['project_resource_id', 'code_sealed'])
        .where(
          'project_resource_id',
          'in',
          servers.map((s) => s.projectResource.id),
        )
        .where('account_id', '=', auth.account.id)
        .where('type', '=', 'normal')
        .where('status', '=', 'enable')
        .where('expire_time', '>', nowSeconds())
        .execute()
    : [];
  const codeOf = new Map(codes.map((c) => [c.project_resource_id, ctx.sealer.open(c.code_sealed)]));
  const gateways = await clusterGateways(
    ctx,
    servers.map((s) => s.network.id),
  );

  const lines = [
    `# Ansible inventory of a Portcullis workgroup (id ${project.id}).`,
    "# Each host is reached through its cluster's gateway SSH proxy; the user is your connection code.",
    `[${groupName(project.name, project.id)}]`,
  ];
  const skipped: string[] = [];
  const aliases = new Set<string>();
  for (const { projectResource, resource, network } of servers) {
    const alias = hostAlias(resource.name, resource.id, aliases);
    const code = codeOf.get(projectResource.id);
    const gateway = gateways.get(network.id);
    if (!code || !CODE_PATTERN.test(code)) {
      skipped.push(`# ${alias}: no valid connection code of yours; create one in the console`);
    } else if (!gateway?.host) {
      skipped.push(`# ${alias}: its cluster has no gateway address yet`);
    } else {
      lines.push(
        `${alias} ansible_host=${gateway.host} ansible_port=${gatewayPort(gateway, 'linux')} ansible_user=${code}`,
      );
    }
  }
  return { text: [...lines, ...skipped, ''].join('\n'), projectId: project.id };
}
