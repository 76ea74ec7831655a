/**
 * Reads the client's SFTP requests (draft-ietf-secsh-filexfer-02, version 3, what OpenSSH
 * speaks) as they pass to the target, for the file log: each SSH_FXP_OPEN names a file and,
 * by its pflags, the direction (write: upload; read only: download). The bytes themselves are
 * never changed or held: the bridge stays a raw pipe, and this parser only watches a copy.
 *
 * Wire layout of every packet:
 *   uint32 length (of what follows) / byte type / …
 * SSH_FXP_OPEN:
 *   uint32 request-id / string filename / uint32 pflags / ATTRS attrs
 * Other packets (WRITE carries file data) are skipped by length without being copied.
 */
import ssh2 from '../ssh2';
import type { FileOp } from '@portcullis/contract';

const { OPEN_MODE } = ssh2.utils.sftp;
const SSH_FXP_OPEN = 3;
/** An OPEN longer than this is not a real client's (a path is at most a few KiB): skipped. */
const OPEN_MAX = 64 * 1024;

export type OnFile = (op: FileOp, filename: string) => void;

export class SftpRequestReader {
  /** Bytes of the current packet's header or OPEN body collected so far. */
  private buffered: Buffer[] = [];
  private bufferedLength = 0;
  /** Bytes of the current packet still to skip (not an OPEN). */
  private skip = 0;
  /** Length of the OPEN packet being collected (after the uint32 length), 0 when none. */
  private openLength = 0;

  constructor(private readonly onFile: OnFile) {}

  push(data: Buffer): void {
    let at = 0;
    while (at < data.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, data.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      const want = this.openLength > 0 ? 4 + this.openLength : 5;
      const n = Math.min(want - this.bufferedLength, data.length - at);
      this.buffered.push(data.subarray(at, at + n));
      this.bufferedLength += n;
      at += n;
      if (this.bufferedLength < want) continue;
      const packet = Buffer.concat(this.buffered);
      this.buffered = [];
      this.bufferedLength = 0;
      if (this.openLength > 0) {
        this.openLength = 0;
        this.onOpen(packet.subarray(5));
        continue;
      }
      const length = packet.readUInt32BE(0);
      if (packet[4] === SSH_FXP_OPEN && length <= OPEN_MAX) {
        // Keep the 5 header bytes and collect the rest of the packet.
        this.openLength = length;
        this.buffered = [packet];
        this.bufferedLength = 5;
      } else this.skip = Math.max(0, length - 1);
    }
  }

  /** request-id, filename, pflags. */
  private onOpen(body: Buffer): void {
    if (body.length < 12) return;
    const nameLength = body.readUInt32BE(4);
    if (8 + nameLength + 4 > body.length) return;
    const filename = body.subarray(8, 8 + nameLength).toString('utf8');
    const pflags = body.readUInt32BE(8 + nameLength);
    const writes = (pflags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT)) !== 0;
    if (writes) this.onFile('upload', filename);
    else if (pflags & OPEN_MODE.READ) this.onFile('download', filename);
  }
}
