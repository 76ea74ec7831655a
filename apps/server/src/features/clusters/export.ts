/**
 * A cluster's resources as a spreadsheet (the cluster list's Export): names, addresses, ports,
 * login users and database names. Never a credential.
 */
import ExcelJS from 'exceljs';
import { RESOURCE_TYPES, type ResourceOs } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { XlsxCell } from '../../lib/report';

export async function exportClusterResources(ctx: AppContext, networkId: number): Promise<Buffer> {
  const rows = await ctx.db
    .selectFrom('resource')
    .selectAll()
    .where('network_id', '=', networkId)
    .orderBy('name')
    .execute();
  const logins = rows.length
    ? await ctx.db
        .selectFrom('resource_login')
        .select(['resource_id', 'username', 'position'])
        .where(
          'resource_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('position')
        .execute()
    : [];
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('resources');
  sheet.addRow(['Name', 'Type', 'Address', 'Port', 'Usernames', 'Databases']).font = { bold: true };
  for (const r of rows) {
    const users = logins.filter((l) => l.resource_id === r.id).map((l) => l.username);
    // Text as typed, as text cells (XlsxCell says why no quote prefix).
    const row: XlsxCell[] = [
      r.name,
      RESOURCE_TYPES[r.os as ResourceOs],
      r.ip_address,
      r.port,
      users.join(';'),
      r.databases,
    ];
    sheet.addRow(row);
  }
  sheet.columns.forEach((c) => (c.width = 24));
  return Buffer.from(await book.xlsx.writeBuffer());
}
