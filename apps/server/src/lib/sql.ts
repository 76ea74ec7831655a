import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Case-insensitive "contains" on one or more columns, the same on SQLite and PostgreSQL:
 * wildcards typed by the user are escaped, so `50%` finds '50%' and not '50 anything'.
 */
export function containsText(columns: string[], text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const parts = columns.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
