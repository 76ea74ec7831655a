/**
 * The Debian packages the database part needs (clients, load tools and the relays it compares
 * the gateway with). Missing ones are installed with apt-get when the bench runs as root, as
 * scripts/ensure-peers.mjs does for the tests; what is still missing afterwards is reported, and
 * the parts that need it are reported as not measured rather than crashing the run.
 */
import fs from 'node:fs';
import { say, timed } from '../lib/proc';

/** A program the bench runs, and the Debian package that brings it. */
export const TOOLS = {
  psql: { bin: '/usr/bin/psql', pkg: 'postgresql-client' },
  pgbench: { bin: '/usr/bin/pgbench', pkg: 'postgresql-15' },
  mysql: { bin: '/usr/bin/mysql', pkg: 'mariadb-client' },
  sysbench: { bin: '/usr/bin/sysbench', pkg: 'sysbench' },
  haproxy: { bin: '/usr/sbin/haproxy', pkg: 'haproxy' },
  pgbouncer: { bin: '/usr/sbin/pgbouncer', pkg: 'pgbouncer' },
  pgpool: { bin: '/usr/sbin/pgpool', pkg: 'pgpool2' },
  runuser: { bin: '/usr/sbin/runuser', pkg: 'util-linux' },
} as const;
export type Tool = keyof typeof TOOLS;

/**
 * Installs what is missing (root and apt-get only) and returns, for each tool still missing,
 * why: callers turn that into "not measured".
 */
export async function ensureTools(): Promise<Map<Tool, string>> {
  const missing = (): Tool[] =>
    (Object.keys(TOOLS) as Tool[]).filter((t) => !fs.existsSync(TOOLS[t].bin));
  const before = missing();
  if (before.length > 0 && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    const pkgs = [...new Set(before.map((t) => TOOLS[t].pkg))];
    say(`db: installing ${pkgs.join(' ')}`);
    const r = await timed(
      'bash',
      [
        '-c',
        `apt-get update -qq && apt-get install -y -qq --no-install-recommends ${pkgs.join(' ')}`,
      ],
      { env: { DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs: 900_000 },
    );
    if (r.code !== 0) say(`db: apt-get failed: ${r.stderr.trim().split('\n').pop() ?? ''}`);
  }
  const why = new Map<Tool, string>();
  for (const t of missing()) {
    why.set(
      t,
      `${TOOLS[t].bin} missing (Debian package ${TOOLS[t].pkg}; the bench installs it only as root with apt-get)`,
    );
  }
  return why;
}
