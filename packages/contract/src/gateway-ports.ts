/** The ports a gateway reports in hello (spec 2 §9 agent default ports). */
import { z } from 'zod';

export const GatewayPortsSchema = z.object({
  ssh_port: z.number().int().min(0).max(65535),
  webssh_port: z.number().int().min(0).max(65535),
  mysql_port: z.number().int().min(0).max(65535),
  postgresql_port: z.number().int().min(0).max(65535),
  mssql_port: z.number().int().min(0).max(65535),
  rdp_port: z.number().int().min(0).max(65535),
  webrdp_port: z.number().int().min(0).max(65535),
});
export type GatewayPorts = z.infer<typeof GatewayPortsSchema>;
