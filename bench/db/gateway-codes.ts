/**
 * The gateway's side of the database part: database resources on the bench's cluster, in the
 * member's workgroup, and the member's codes for them (a code is the user name on the gateway's
 * proxies; no password). One PostgreSQL resource without rules; three MariaDB resources on the
 * same database with 0, 10 and 100 block rules. The rules name tables the benchmark never
 * touches (`t_0` …), so every statement passes but is checked against each of them; the
 * statement log is always on.
 */
import { SQL_OPS, type SqlRule } from '@portcullis/contract';
import {
  addResourcesTo,
  projectResourceId,
} from '../../apps/server/src/features/workgroups/test-fixtures';
import { BENCH_CODE_HOURS, type Stack } from '../lib/stack';
import { BENCH_DB, MYSQL, PG } from './data';

export const RULE_COUNTS = [0, 10, 100] as const;
export type RuleCount = (typeof RULE_COUNTS)[number];

/** `n` block rules, every operation in turn, each on its own untouched table. */
export function unusedTableRules(n: number): SqlRule[] {
  return Array.from({ length: n }, (_, i) => ({
    op: SQL_OPS[i % SQL_OPS.length]!,
    table: `t_${i}`,
  }));
}

async function databaseCode(
  stack: Stack,
  name: string,
  os: 'postgresql' | 'mysql',
  target: { port: number; user: string; password: string },
  rules: SqlRule[],
): Promise<string> {
  const { admin } = stack;
  const res = await admin.post('/api/v1/resource', {
    network_id: stack.networkId,
    name,
    ip_address: '127.0.0.1',
    os,
    port: target.port,
    username: target.user,
    password: target.password,
    databases: BENCH_DB,
  });
  if (res.statusCode !== 200) throw new Error(`add ${name}: ${res.body}`);
  const id = res.json().id as number;
  if (rules.length > 0) {
    const sec = await admin.patch(`/api/v1/resource/${id}/security`, {
      status: 1,
      block_pattern: rules,
      notice_pattern: [],
      notice_status: 0,
      approve_accounts: [],
      notice_accounts: [],
    });
    if (sec.statusCode !== 200) throw new Error(`rules for ${name}: ${sec.body}`);
  }
  await addResourcesTo(admin, stack.workgroupId, [id]);
  const projectResource = await projectResourceId(admin, stack.workgroupId, id);
  const code = await stack.memberClient.post('/api/tunnel', {
    project_resource_id: projectResource,
    expire: BENCH_CODE_HOURS,
  });
  if (code.statusCode !== 200) throw new Error(`code for ${name}: ${code.body}`);
  return code.json().code as string;
}

export interface GatewayCodes {
  postgres: string;
  mysql: Record<RuleCount, string>;
}

export async function gatewayCodes(stack: Stack): Promise<GatewayCodes> {
  const postgres = await databaseCode(
    stack,
    'bench-pg',
    'postgresql',
    { port: PG.port, user: PG.user, password: PG.password },
    [],
  );
  const mysql = {} as Record<RuleCount, string>;
  for (const n of RULE_COUNTS) {
    mysql[n] = await databaseCode(
      stack,
      `bench-mysql-${n}-rules`,
      'mysql',
      { port: MYSQL.port, user: MYSQL.user, password: MYSQL.password },
      unusedTableRules(n),
    );
  }
  return { postgres, mysql };
}
