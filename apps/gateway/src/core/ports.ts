/**
 * The ports this gateway reports in hello (spec 2 §9, agent default ports). They are where the
 * session proxies will listen; in this first step nothing listens on them yet.
 */
import type { GatewayPorts } from '../control/protocol';

export const DEFAULT_PORTS: Readonly<GatewayPorts> = Object.freeze({
  ssh_port: 9998,
  webssh_port: 8889,
  mysql_port: 9696,
  postgresql_port: 9432,
  mssql_port: 9433,
  rdp_port: 9389,
  webrdp_port: 8389,
});
