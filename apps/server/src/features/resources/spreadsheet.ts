/**
 * Resources by spreadsheet (spec 2 §5, §7, §8): the xlsx template in English or Chinese, and
 * the import, which checks every row with the same schemas as the add forms and then adds all
 * rows in one transaction or none. File bytes are parsed as data only; the file name is only
 * used for its extension.
 */
import ExcelJS from 'exceljs';
import {
  CreateDatabaseBodySchema,
  CreateInstanceBodySchema,
  RESOURCE_TYPES,
  type ResourceOs,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { teamCluster } from '../clusters/service';
import { writeEvent } from '../events/writer';
import { assertRoom } from './service';

type Kind = 'ecs' | 'database';

interface Column {
  key: string;
  en: string;
  zh: string;
}

const COLUMNS: Record<Kind, Column[]> = {
  ecs: [
    { key: 'name', en: 'Name', zh: '名称' },
    { key: 'ip_address', en: 'Inner IP', zh: '内网IP' },
    { key: 'os', en: 'OS (linux or win32)', zh: '操作系统（linux 或 win32）' },
    { key: 'port', en: 'Port', zh: '端口' },
    { key: 'username', en: 'Usernames (separated by ;)', zh: '用户名（多个用 ; 分隔）' },
    { key: 'password', en: 'Password (optional)', zh: '密码（可选）' },
  ],
  database: [
    { key: 'name', en: 'Name', zh: '名称' },
    { key: 'ip_address', en: 'Host (IP or link)', zh: '地址（IP 或域名）' },
    {
      key: 'os',
      en: 'Type (mysql, postgresql or mssql)',
      zh: '类型（mysql、postgresql 或 mssql）',
    },
    { key: 'port', en: 'Port', zh: '端口' },
    { key: 'username', en: 'Username', zh: '用户名' },
    { key: 'password', en: 'Password', zh: '密码' },
    {
      key: 'databases',
      en: 'Databases (separated by ; or *)',
      zh: '数据库（多个用 ; 分隔，或 *）',
    },
  ],
};

const EXAMPLES: Record<Kind, (string | number)[]> = {
  ecs: ['web-1', '10.0.0.11', 'linux', 22, 'root;deploy', ''],
  database: ['orders-db', '10.0.0.21', 'mysql', 3306, 'app', 'replace-me', 'orders;billing'],
};

export async function importTemplate(kind: Kind, language: 'en_US' | 'zh_CN'): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(kind === 'ecs' ? 'servers' : 'databases');
  sheet.addRow(COLUMNS[kind].map((c) => (language === 'zh_CN' ? c.zh : c.en)));
  sheet.addRow(EXAMPLES[kind]);
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((col) => (col.width = 28));
  return Buffer.from(await book.xlsx.writeBuffer());
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    if ('result' in value && value.result !== undefined) return String(value.result).trim();
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    return '';
  }
  return String(value).trim();
}

async function readRows(
  kind: Kind,
  data: string,
): Promise<{ row: number; values: Record<string, string> }[]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(Buffer.from(data, 'base64') as unknown as ArrayBuffer);
  } catch {
    throw new AppError('FileTypeError');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw new AppError('FileEmptyError');
  const rows: { row: number; values: Record<string, string> }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const values: Record<string, string> = {};
    COLUMNS[kind].forEach((c, i) => (values[c.key] = cellText(row.getCell(i + 1).value)));
    if (Object.values(values).some((v) => v !== '')) rows.push({ row: number, values });
  });
  return rows;
}

function columnNumber(kind: Kind, key: string): number {
  return COLUMNS[kind].findIndex((c) => c.key === key) + 1;
}

type Parsed =
  | ({ kind: 'ecs' } & ReturnType<typeof CreateInstanceBodySchema.parse>)
  | ({ kind: 'database' } & ReturnType<typeof CreateDatabaseBodySchema.parse>);

function parseRow(kind: Kind, networkId: number, row: number, v: Record<string, string>): Parsed {
  const port = /^\d+$/.test(v.port ?? '') ? Number(v.port) : Number.NaN;
  const body =
    kind === 'ecs'
      ? {
          network_id: networkId,
          name: v.name,
          ip_address: v.ip_address,
          os: v.os,
          port,
          login_users: (v.username ?? '')
            .split(';')
            .map((u) => u.trim())
            .filter(Boolean)
            .map((username) => ({
              username,
              auth_type: 0,
              ...(v.password && { password: v.password }),
            })),
        }
      : {
          network_id: networkId,
          name: v.name,
          ip_address: v.ip_address,
          os: v.os,
          port,
          username: v.username,
          password: v.password,
          databases: v.databases,
        };
  const schema = kind === 'ecs' ? CreateInstanceBodySchema : CreateDatabaseBodySchema;
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = String(issue?.path[0] ?? 'name');
    const key = field === 'login_users' ? 'username' : field;
    throw new AppError('FileDataError', {
      row,
      column: columnNumber(kind, key) || 1,
      reason: `${key}: ${issue?.message ?? 'invalid'}`,
    });
  }
  return { kind, ...result.data } as Parsed;
}

export async function importResources(
  ctx: AppContext,
  auth: AuthContext,
  body: {
    network_id: number;
    resource_type: Kind;
    content: { data: string; file_name: string; extension: string }[];
  },
): Promise<{ imported: number }> {
  const network = await teamCluster(ctx, auth, body.network_id);
  const file = body.content[0]!;
  const extension = (file.file_name.split('.').pop() ?? '').toLowerCase();
  if (extension !== 'xlsx') throw new AppError('FileTypeError');
  const rows = await readRows(body.resource_type, file.data);
  if (rows.length === 0) throw new AppError('FileEmptyError');
  const parsed = rows.map((r) => parseRow(body.resource_type, network.id, r.row, r.values));

  // Addresses twice in the file, or already in the cluster, are named back to the user.
  const ips = parsed.map((p) => p.ip_address);
  const twice = [...new Set(ips.filter((ip, i) => ips.indexOf(ip) !== i))];
  if (twice.length > 0) throw new AppError('FileResourceExist', { ips: twice.join(', ') });
  const existing = await ctx.db
    .selectFrom('resource')
    .select('ip_address')
    .where('network_id', '=', network.id)
    .where('ip_address', 'in', ips)
    .execute();
  if (existing.length > 0)
    throw new AppError('ResourceExist', {
      ips: [...new Set(existing.map((e) => e.ip_address))].join(', '),
    });
  await assertRoom(ctx, auth, network.id, parsed.length);

  const now = nowSeconds();
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      for (const p of parsed) {
        const resource = await trx
          .insertInto('resource')
          .values({
            company_id: auth.company.id,
            network_id: network.id,
            name: p.name,
            name_key: p.name.toLowerCase(),
            os: p.os,
            ip_address: p.ip_address,
            port: p.port,
            instance_id: '',
            flavor: '',
            databases: p.kind === 'database' ? p.databases : '',
            status: 1,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const logins =
          p.kind === 'database'
            ? [{ username: p.username, auth_type: 0, password: p.password }]
            : p.login_users.map((u) => ({
                username: u.username,
                auth_type: u.auth_type,
                password: u.password,
              }));
        await trx
          .insertInto('resource_login')
          .values(
            logins.map((l, position) => ({
              resource_id: resource.id,
              username: l.username,
              auth_type: l.auth_type,
              secret_sealed: l.password ? ctx.sealer.seal(l.password) : null,
              test_result: null,
              position,
            })),
          )
          .execute();
      }
    })
    .catch((error: unknown) => {
      if (/unique|duplicate/i.test(String((error as Error).message)))
        throw new AppError('ResourceNameExist');
      throw error;
    });
  for (const p of parsed) {
    await writeEvent(ctx, auth, 'cluster', `add${RESOURCE_TYPES[p.os as ResourceOs]}`, {
      net_name: network.name,
      resource_name: p.name,
    });
  }
  return { imported: parsed.length };
}
