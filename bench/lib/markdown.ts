/** Markdown pieces shared by the bench's reports (report.ts, db/report.ts). */

/** A figure with `digits` decimals, or n/a. */
export const f = (n: number, digits = 1): string =>
  Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
export const verdict = (ok: boolean): string => (ok ? '**met**' : '**not met**');
export const mib = (bytes: number): string => `${f(bytes / 2 ** 20, 0)} MiB`;

export function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
