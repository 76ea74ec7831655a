/**
 * The file log's readers over hand-built streams, fed in every split, so a packet or header
 * cut across two chunks is still read. Real sftp and scp runs are in the server's tests.
 */
import { describe, expect, it } from 'vitest';
import type { FileOp } from '@portcullis/contract';
import { scpBase, ScpStreamReader, scpDirection } from './scp';
import { SftpRequestReader } from './sftp';

function packet(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length + 1, 0);
  head[4] = type;
  return Buffer.concat([head, body]);
}

function open(id: number, name: string, pflags: number): Buffer {
  const nameBytes = Buffer.from(name);
  const body = Buffer.alloc(4 + 4 + nameBytes.length + 4 + 4);
  body.writeUInt32BE(id, 0);
  body.writeUInt32BE(nameBytes.length, 4);
  nameBytes.copy(body, 8);
  body.writeUInt32BE(pflags, 8 + nameBytes.length);
  body.writeUInt32BE(0, 12 + nameBytes.length); // ATTRS: no flags
  return packet(3, body);
}

/** Feeds `stream` cut at `cut`, and whole in single bytes. */
function feedings(stream: Buffer): Buffer[][] {
  const cuts = [1, 3, 7, 64].map((size) => {
    const parts: Buffer[] = [];
    for (let at = 0; at < stream.length; at += size) parts.push(stream.subarray(at, at + size));
    return parts;
  });
  return [[stream], ...cuts];
}

describe('SftpRequestReader', () => {
  it('logs each OPEN with its direction and skips other packets by length', () => {
    const init = packet(1, Buffer.from([0, 0, 0, 3]));
    const write = packet(6, Buffer.alloc(40_000, 7)); // a WRITE carrying file data
    const stream = Buffer.concat([
      init,
      open(1, '/tmp/up.bin', 0x02 | 0x08 | 0x10),
      write,
      open(2, '/etc/hostname', 0x01),
      packet(4, Buffer.alloc(8)), // CLOSE
      open(3, '报告.txt', 0x01 | 0x04),
    ]);
    for (const parts of feedings(stream)) {
      const seen: [FileOp, string][] = [];
      const reader = new SftpRequestReader((op, name) => seen.push([op, name]));
      for (const part of parts) reader.push(part);
      expect(seen).toEqual([
        ['upload', '/tmp/up.bin'],
        ['download', '/etc/hostname'],
        ['upload', '报告.txt'],
      ]);
    }
  });
});

describe('scp', () => {
  it('reads the direction from the exec command', () => {
    expect(scpDirection('scp -t /tmp/x')).toBe('upload');
    expect(scpDirection('scp -v -d -t -- /tmp')).toBe('upload');
    expect(scpDirection('scp -f /etc/hostname')).toBe('download');
    expect(scpDirection('scp -r -p -f dir')).toBe('download');
    expect(scpDirection('/usr/bin/scp -f x')).toBe('download');
    expect(scpDirection('scpx -t x')).toBeNull();
    expect(scpDirection('ls -t')).toBeNull();
  });

  it('logs each file header, with its directories, and counts file bytes off unread', () => {
    const data = Buffer.alloc(5000, 0x0a); // newlines inside file data are not headers
    const stream = Buffer.concat([
      Buffer.from('T1700000000 0 1700000000 0\nD0755 0 dir\nC0644 5000 a.txt\n'),
      data,
      Buffer.from([0]),
      Buffer.from('E\nC0600 3 b c.bin\nxyz'),
      Buffer.from([0]),
    ]);
    for (const parts of feedings(stream)) {
      const seen: [FileOp, string][] = [];
      const reader = new ScpStreamReader('upload', (op, name) => seen.push([op, name]));
      for (const part of parts) reader.push(part);
      expect(seen).toEqual([
        ['upload', 'dir/a.txt'],
        ['upload', 'b c.bin'],
      ]);
    }
  });

  it('puts the names under the folder the command names for sure', () => {
    expect(scpBase('scp -f /var/log/syslog', 'download')).toBe('/var/log');
    expect(scpBase("scp -f '/var/log/*.log'", 'download')).toBe('/var/log');
    expect(scpBase('scp -r -f -- /srv/site', 'download')).toBe('/srv');
    expect(scpBase('scp -f /x', 'download')).toBe('/');
    expect(scpBase('scp -f notes.txt', 'download')).toBeNull();
    expect(scpBase('scp -d -t /tmp/in', 'upload')).toBe('/tmp/in');
    expect(scpBase('scp -t /tmp/maybe-a-folder', 'upload')).toBeNull();
    const seen: string[] = [];
    const reader = new ScpStreamReader('download', (_op, name) => seen.push(name), '/srv/');
    reader.push(Buffer.from('D0755 0 site\nC0644 0 index.html\n\0E\n'));
    expect(seen).toEqual(['/srv/site/index.html']);
  });
});
