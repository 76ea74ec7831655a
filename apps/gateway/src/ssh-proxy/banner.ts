/**
 * Sends an SSH_MSG_USERAUTH_BANNER during authentication, so a refused client sees why
 * (OpenSSH prints banners on stderr). ssh2's server sends one banner only, fixed when it starts,
 * before any attempt; a refusal's reason is known only later, so this writes the message through
 * ssh2's protocol object. That is an internal of ssh2 1.x: if it changes, the banner is skipped
 * (logged), and the refusal itself still happens.
 */
import type { Connection } from 'ssh2';
import ssh2ProtocolUtils from 'ssh2/lib/protocol/utils.js';
import type { Logger } from '../core/logger';

const SSH_MSG_USERAUTH_BANNER = 53;

interface PacketWriter {
  allocStart: number;
  alloc(length: number): Buffer;
  finalize(packet: Buffer): Buffer;
}
interface ProtocolInternals {
  _packetRW?: { write?: PacketWriter };
}
type SendPacket = (protocol: ProtocolInternals, packet: Buffer) => void;

// A static import, so the single-file bundle (scripts/bundle.mjs) carries it too.
const sendPacket: SendPacket | null =
  (ssh2ProtocolUtils.sendPacket as SendPacket | undefined) ?? null;

export function sendBanner(client: Connection, text: string, logger: Logger): void {
  // Reaching the protocol object ssh2 keeps on the connection (see the module comment).
  const protocol = (client as unknown as { _protocol?: ProtocolInternals })._protocol;
  const writer = protocol?._packetRW?.write;
  if (!protocol || !writer || !sendPacket) {
    logger.warn('cannot send an SSH banner with this ssh2 version');
    return;
  }
  const message = text.endsWith('\r\n') ? text : `${text}\r\n`;
  const length = Buffer.byteLength(message);
  /* byte SSH_MSG_USERAUTH_BANNER / string message (UTF-8) / string language tag */
  let p = writer.allocStart;
  const packet = writer.alloc(1 + 4 + length + 4);
  packet[p] = SSH_MSG_USERAUTH_BANNER;
  packet.writeUInt32BE(length, ++p);
  packet.write(message, (p += 4), length, 'utf8');
  packet.writeUInt32BE(0, p + length);
  sendPacket(protocol, writer.finalize(packet));
}
