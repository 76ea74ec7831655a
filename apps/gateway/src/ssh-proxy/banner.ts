/**
 * Two SSH messages ssh2's server cannot send with a text of ours, written through its protocol
 * object: an SSH_MSG_USERAUTH_BANNER during authentication, so a refused client sees why
 * (OpenSSH prints banners on stderr; ssh2 sends one banner only, fixed when it starts, before
 * any attempt, and a refusal's reason is known only later), and an SSH_MSG_DISCONNECT with a
 * description (ssh2's own `disconnect(reason)` sends an empty one, and OpenSSH then prints
 * `Received disconnect from …:11: ` and nothing else). Also a refused channel open's
 * description (ssh2's reject() sends an empty one). These are internals of ssh2 1.x: if they
 * change, the text is skipped (logged), and the refusal or the disconnect still happens.
 */
import type { Connection } from 'ssh2';
import ssh2ProtocolUtils from 'ssh2/lib/protocol/utils.js';
import type { Logger } from '../core/logger';

const SSH_MSG_DISCONNECT = 1;
const SSH_MSG_USERAUTH_BANNER = 53;

/** RFC 4253 §11.1 reason codes the gateway sends. */
export const DISCONNECT_BY_APPLICATION = 11;
export const DISCONNECT_NO_MORE_AUTH_METHODS = 14;

interface PacketWriter {
  allocStart: number;
  /** Where a packet starts when it may go out during a key exchange (the disconnect). */
  allocStartKEX: number;
  alloc(length: number, force?: boolean): Buffer;
  finalize(packet: Buffer, force?: boolean): Buffer;
}
interface ProtocolInternals {
  _packetRW?: { write?: PacketWriter };
}
type SendPacket = (protocol: ProtocolInternals, packet: Buffer, bypass?: boolean) => void;

// A static import, so the single-file bundle (scripts/bundle.mjs) carries it too.
const sendPacket: SendPacket | null =
  (ssh2ProtocolUtils.sendPacket as SendPacket | undefined) ?? null;

/** The protocol object ssh2 keeps on the connection, and its packet writer (see above). */
function internals(
  client: Connection,
): { protocol: ProtocolInternals; writer: PacketWriter; send: SendPacket } | null {
  const protocol = (client as unknown as { _protocol?: ProtocolInternals })._protocol;
  const writer = protocol?._packetRW?.write;
  if (!protocol || !writer || !sendPacket) return null;
  return { protocol, writer, send: sendPacket };
}

export function sendBanner(client: Connection, text: string, logger: Logger): void {
  const found = internals(client);
  if (!found) {
    logger.warn('cannot send an SSH banner with this ssh2 version');
    return;
  }
  const { protocol, writer, send } = found;
  const message = text.endsWith('\r\n') ? text : `${text}\r\n`;
  const length = Buffer.byteLength(message);
  /* byte SSH_MSG_USERAUTH_BANNER / string message (UTF-8) / string language tag */
  let p = writer.allocStart;
  const packet = writer.alloc(1 + 4 + length + 4);
  packet[p] = SSH_MSG_USERAUTH_BANNER;
  packet.writeUInt32BE(length, ++p);
  packet.write(message, (p += 4), length, 'utf8');
  packet.writeUInt32BE(0, p + length);
  send(protocol, writer.finalize(packet));
}

/**
 * Hangs up on the client with SSH_MSG_DISCONNECT carrying `description` (OpenSSH prints
 * `Received disconnect from HOST port PORT:REASON: DESCRIPTION`), then closes the socket.
 * Without the internals, ssh2's own disconnect (no description) does it.
 */
export function disconnectWith(
  client: Connection,
  reason: number,
  description: string,
  logger: Logger,
): void {
  const socket = (client as unknown as { _sock?: { writable?: boolean; end(): void } })._sock;
  const found = internals(client);
  if (!found || !socket) {
    logger.warn('cannot send an SSH disconnect message with this ssh2 version');
    client.end();
    return;
  }
  if (!socket.writable) return;
  const { protocol, writer, send } = found;
  const length = Buffer.byteLength(description);
  /* byte SSH_MSG_DISCONNECT / uint32 reason code / string description (UTF-8) / string language tag */
  // As ssh2's own disconnect: a packet that may go out in the middle of a key exchange.
  let p = writer.allocStartKEX;
  const packet = writer.alloc(1 + 4 + 4 + length + 4, true);
  packet[p] = SSH_MSG_DISCONNECT;
  packet.writeUInt32BE(reason, ++p);
  packet.writeUInt32BE(length, (p += 4));
  packet.write(description, (p += 4), length, 'utf8');
  packet.writeUInt32BE(0, p + length);
  send(protocol, writer.finalize(packet, true), true);
  socket.end();
}

/** RFC 4254 §5.1: SSH_OPEN_ADMINISTRATIVELY_PROHIBITED. */
const OPEN_ADMINISTRATIVELY_PROHIBITED = 1;

type ChannelOpenFail = (remote: number, reason: number, description: string) => void;

/**
 * Refuses a channel open (ssh2's `reject` of a 'tcpip' or 'openssh.streamlocal' event) as
 * administratively prohibited, with `description` (OpenSSH prints `open failed:
 * administratively prohibited: DESCRIPTION`). ssh2's reject() sends its failure synchronously
 * through the protocol's channelOpenFail: for that one call, the reason and text are ours.
 */
export function refuseChannelOpen(
  client: Connection,
  reject: (() => void) | undefined,
  description: string,
  logger: Logger,
): void {
  if (!reject) return;
  const protocol = (client as unknown as { _protocol?: { channelOpenFail?: ChannelOpenFail } })
    ._protocol;
  const stock = protocol?.channelOpenFail;
  if (!protocol || typeof stock !== 'function') {
    logger.warn('cannot say why a channel was refused with this ssh2 version');
    return reject();
  }
  const own = Object.hasOwn(protocol, 'channelOpenFail');
  protocol.channelOpenFail = (remote) =>
    stock.call(protocol, remote, OPEN_ADMINISTRATIVELY_PROHIBITED, description);
  try {
    reject();
  } finally {
    if (own) protocol.channelOpenFail = stock;
    else delete protocol.channelOpenFail;
  }
}
