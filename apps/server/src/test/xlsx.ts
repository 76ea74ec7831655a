/**
 * For tests of the resource spreadsheets (a cluster's, a workgroup's): a resource whose fields
 * a spreadsheet would run as formulas were they formula cells, and the check that the file
 * gives them back as typed, as text cells.
 */
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { TestApp } from './harness';

/** A name, an address and database names that start with `-`, `+`, `=` and hold an `@`. */
export const FORMULA_LIKE = {
  name: '-staging',
  ip_address: '+10.0.0.9',
  databases: '=1+1;@SUM(A1)',
} as const;

/** A MySQL resource of `networkId` with the {@link FORMULA_LIKE} fields; its id. */
export async function insertFormulaLikeResource(t: TestApp, networkId: number): Promise<number> {
  const inserted = await t.ctx.db
    .insertInto('resource')
    .values({
      company_id: 1,
      network_id: networkId,
      ...FORMULA_LIKE,
      name_key: FORMULA_LIKE.name,
      os: 'mysql',
      port: 3306,
      instance_id: '',
      flavor: '',
      status: 1,
      created_at: Math.floor(Date.now() / 1000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * Expects the first sheet's second row (the first after the header) to hold the
 * {@link FORMULA_LIKE} fields in the given columns exactly as typed (a quote prefix used to turn
 * `-staging` into `'-staging`), each a text cell and none a formula.
 */
export async function expectTypedAsText(
  file: Buffer,
  columns: Record<keyof typeof FORMULA_LIKE, number>,
): Promise<void> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const row = book.worksheets[0]!.getRow(2);
  for (const field of ['name', 'ip_address', 'databases'] as const) {
    const cell = row.getCell(columns[field]);
    const text = FORMULA_LIKE[field];
    expect(cell.value, text).toBe(text);
    expect(cell.type, text).toBe(ExcelJS.ValueType.String);
    expect(cell.formula, text).toBeUndefined();
  }
}
