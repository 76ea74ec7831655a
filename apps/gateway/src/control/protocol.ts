/**
 * The control-channel contract (packages/contract/src/control.ts), re-exported in one place so
 * the gateway's modules name what they use from it and nothing else.
 */
export {
  CONTROL_PATH,
  CONTROL_PROTOCOL,
  CONTROL_PROTOCOL_MIN,
  encodeRecordingFrame,
  GATEWAY_FEATURES,
  GatewayMessageSchema,
  GatewayPortsSchema,
  HEARTBEAT_GRACE_SECONDS,
  HEARTBEAT_SECONDS,
  RECORDING_CHUNK_BYTES,
  ServerMessageSchema,
  TaskResultSchema,
  TaskSchema,
} from '@portcullis/contract';
export type {
  ConnectivityTarget,
  DbTls,
  GatewayMessage,
  GatewayPorts,
  RecordingChunk,
  ResolvedCode,
  ServerMessage,
  SessionCredential,
  SessionRefusal,
  SshLogin,
  Task,
  TaskResult,
} from '@portcullis/contract';
