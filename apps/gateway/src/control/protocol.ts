/**
 * The control-channel contract, re-exported in one place for the gateway.
 *
 * `packages/contract/src/index.ts` does not export `./control` yet, so this reaches the module
 * by path; once the index exports it, this file becomes `export … from '@portcullis/contract'`
 * and nothing else in the gateway changes.
 */
export {
  CONTROL_PATH,
  CONTROL_PROTOCOL,
  CONTROL_PROTOCOL_MIN,
  GATEWAY_FEATURES,
  GatewayMessageSchema,
  GatewayPortsSchema,
  HEARTBEAT_GRACE_SECONDS,
  HEARTBEAT_SECONDS,
  ServerMessageSchema,
  TaskResultSchema,
  TaskSchema,
} from '../../../../packages/contract/src/control';
export type {
  ConnectivityTarget,
  GatewayMessage,
  GatewayPorts,
  ServerMessage,
  Task,
  TaskResult,
} from '../../../../packages/contract/src/control';
