import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';

async function xlsx(rows: (string | number)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('s');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

const ECS_HEADER = ['Name', 'Inner IP', 'OS', 'Port', 'Usernames', 'Password'];
const DB_HEADER = ['Name', 'Host', 'Type', 'Port', 'Username', 'Password', 'Databases'];

describe('spreadsheet import', () => {
  let t: TestApp;
  let admin: TestClient;
  let networkId: number;
  const post = (resource_type: 'ecs' | 'database', data: string, file_name = 'hosts.xlsx') =>
    admin.post('/api/file/batch/resource', {
      network_id: networkId,
      resource_type,
      content: [{ data, file_name, extension: file_name.split('.').pop() }],
    });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    networkId = (await admin.post('/api/v1/network', { name: 'Import' })).json().id;
  });
  afterAll(() => t.close());

  it('offers the template in English and Chinese, and the template imports as it is', async () => {
    for (const [language, header] of [
      ['en_US', 'Inner IP'],
      ['zh_CN', '内网IP'],
    ] as const) {
      const res = await admin.get(`/api/v1/resource/template?type=ecs&language=${language}`);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      expect(book.worksheets[0]!.getRow(1).getCell(2).value).toBe(header);
    }
    const template = await admin.get('/api/v1/resource/template?type=database');
    const res = await post('database', template.rawPayload.toString('base64'));
    expect(res.json()).toEqual({ imported: 1 });
  });

  it('imports every row of a good file', async () => {
    const data = await xlsx([
      ECS_HEADER,
      ['web-1', '10.0.0.11', 'linux', 22, 'root;deploy', 'S3cret!x'],
      ['win-1', '10.0.0.12', 'win32', 3389, 'administrator', ''],
    ]);
    expect((await post('ecs', data)).json()).toEqual({ imported: 2 });
    const list = (await admin.get(`/api/v1/network/${networkId}/resource?type=ecs`)).json();
    expect(list.objects.map((r: { name: string }) => r.name).sort()).toEqual(['web-1', 'win-1']);
    expect(
      JSON.stringify(await t.ctx.db.selectFrom('resource_login').selectAll().execute()),
    ).not.toContain('S3cret!x');
  });

  it('refuses bad files with the spec’s codes and imports nothing', async () => {
    const count = async () =>
      (await admin.get(`/api/v1/network/${networkId}/resource`)).json().num_results;
    const before = await count();
    expect((await post('ecs', await xlsx([ECS_HEADER]))).json().code).toBe('FileEmptyError');
    expect(
      (await post('ecs', Buffer.from('name,ip\n').toString('base64'), 'hosts.csv')).json().code,
    ).toBe('FileTypeError');
    expect(
      (await post('ecs', Buffer.from('not a spreadsheet').toString('base64'))).json().code,
    ).toBe('FileTypeError');
    const badRow = await post(
      'ecs',
      await xlsx([
        ECS_HEADER,
        ['ok', '10.0.1.1', 'linux', 22, 'root', ''],
        ['bad', '10.0.1', 'linux', 22, 'root', ''],
      ]),
    );
    expect(badRow.json()).toMatchObject({ code: 'FileDataError' });
    expect(badRow.json().error_message).toMatch(/^Row 3, column 2: ip_address/);
    const dupInFile = await post(
      'ecs',
      await xlsx([
        ECS_HEADER,
        ['a', '10.0.2.1', 'linux', 22, 'root', ''],
        ['b', '10.0.2.1', 'linux', 22, 'root', ''],
      ]),
    );
    expect(dupInFile.json()).toMatchObject({
      code: 'FileResourceExist',
      error_message: 'Intranet IP: 10.0.2.1 exist!',
    });
    const exists = await post(
      'ecs',
      await xlsx([ECS_HEADER, ['c', '10.0.0.11', 'linux', 22, 'root', '']]),
    );
    expect(exists.json()).toMatchObject({
      code: 'ResourceExist',
      error_message: 'Intranet IP: 10.0.0.11 exist!',
    });
    const badDb = await post(
      'database',
      await xlsx([DB_HEADER, ['db', '10.0.3.1', 'mysql', 3306, 'app', 'pw', 'a;*']]),
    );
    expect(badDb.json().code).toBe('FileDataError');
    await t.ctx.db
      .updateTable('plan')
      .set({ resource_limit: before + 1 })
      .execute();
    const over = await post(
      'ecs',
      await xlsx([
        ECS_HEADER,
        ['x1', '10.0.4.1', 'linux', 22, 'root', ''],
        ['x2', '10.0.4.2', 'linux', 22, 'root', ''],
      ]),
    );
    expect(over.json().code).toBe('ResourceExceeded');
    expect(await count()).toBe(before);
  });
});
