// Scans here cover 127.0.0.0/24 and nothing else (a hard rule of this workplace): other ranges
// appear only as text given to parseCidr, which never connects anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshd, type SshdPeer } from '../../../../scripts/peers/sshd.mjs';
import { freePort } from '../test/net';
import { TaskCancelledError } from './errors';
import { ipToString, parseCidr, runScan, scanAddresses, ScanInputError } from './scan';

const LOOPBACK_RANGE = '127.0.0.0/24';

describe('parseCidr', () => {
  it('accepts IPv4 ranges with prefixes 24 to 32 and clears host bits', () => {
    expect(parseCidr('127.0.0.0/24')).toEqual({ network: 0x7f000000, prefix: 24 });
    expect(parseCidr(' 192.168.1.77/24 ')).toEqual({ network: 0xc0a80100, prefix: 24 });
    expect(parseCidr('10.1.2.3/32')).toEqual({ network: 0x0a010203, prefix: 32 });
    expect(parseCidr('10.1.2.7/30')).toEqual({ network: 0x0a010204, prefix: 30 });
    expect(parseCidr('255.255.255.255/32').network).toBe(0xffffffff);
  });

  it.each([
    '',
    '127.0.0.0',
    '127.0.0.0/',
    '127.0.0.0/23',
    '10.0.0.0/8',
    '0.0.0.0/0',
    '127.0.0.0/33',
    '127.0.0.0/024',
    '127.0.0/24',
    '127.0.0.0.0/24',
    '256.0.0.0/24',
    '010.0.0.0/24',
    '127.0.0.-1/24',
    '127.0.0.0/24/24',
    '::1/128',
    'fe80::/120',
    'localhost/24',
    '127.0.0.0 /24',
    '１２７.0.0.0/24',
  ])('refuses %j with the spec message', (text) => {
    expect(() => parseCidr(text)).toThrow(ScanInputError);
    expect(() => parseCidr(text)).toThrow('e.g. 192.168.1.0/24, and only supports 24-32');
  });

  it('lists the addresses to visit: no network or broadcast address up to /30', () => {
    const all = scanAddresses(parseCidr('127.0.0.0/24'));
    expect(all).toHaveLength(254);
    expect(ipToString(all[0] as number)).toBe('127.0.0.1');
    expect(ipToString(all.at(-1) as number)).toBe('127.0.0.254');
    expect(scanAddresses(parseCidr('10.0.0.4/30')).map(ipToString)).toEqual([
      '10.0.0.5',
      '10.0.0.6',
    ]);
    expect(scanAddresses(parseCidr('10.0.0.4/31')).map(ipToString)).toEqual([
      '10.0.0.4',
      '10.0.0.5',
    ]);
    expect(scanAddresses(parseCidr('10.0.0.4/32')).map(ipToString)).toEqual(['10.0.0.4']);
  });
});

describe('runScan on 127.0.0.0/24', () => {
  let sshd: SshdPeer;
  beforeAll(async () => {
    sshd = await startSshd();
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
  });

  it("finds the sshd's port open on 127.0.0.1 only", async () => {
    const started = Date.now();
    const open = await runScan(LOOPBACK_RANGE, sshd.port);
    expect(open).toEqual([{ ip: '127.0.0.1', port: sshd.port }]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('finds nothing on a closed port', async () => {
    expect(await runScan(LOOPBACK_RANGE, await freePort())).toEqual([]);
  });

  it('refuses a bad port before connecting anywhere', async () => {
    await expect(runScan(LOOPBACK_RANGE, 0)).rejects.toThrow('please input the right port');
    await expect(runScan(LOOPBACK_RANGE, 65536)).rejects.toThrow(ScanInputError);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runScan(LOOPBACK_RANGE, sshd.port, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(TaskCancelledError);
  });
});
