/**
 * Range scan (spec 2 §4 and §5): a TCP connect to every address of an IPv4 CIDR on one port,
 * answering the addresses that accepted. Only prefixes 24 to 32 are accepted, so one scan
 * touches at most 256 addresses; the range is parsed strictly and refused otherwise.
 *
 * Limits: "open" means a TCP handshake completed, nothing about what listens there. Network
 * and broadcast addresses are skipped for prefixes up to /30 (as for any host scan); /31 and
 * /32 scan every address they hold.
 */
import { TaskCancelledError, TaskInputError } from './errors';
import { tcpProbe } from './tcp-probe';

export const SCAN_MIN_PREFIX = 24;
export const SCAN_MAX_PREFIX = 32;

export interface Cidr {
  /** The network address as an unsigned 32-bit number (host bits cleared). */
  network: number;
  prefix: number;
}

/** Thrown for a range or port the scan refuses; its message is safe to send back. */
export class ScanInputError extends TaskInputError {
  override readonly name = 'ScanInputError';
}

const CIDR_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * Parses `a.b.c.d/n` strictly: four decimal octets 0-255 without leading zeros (an address
 * like `010.0.0.1` means octal to some tools, so it is refused rather than guessed at), and a
 * prefix from 24 to 32. Host bits may be set (`192.168.1.7/24`); they are cleared.
 */
export function parseCidr(text: string): Cidr {
  const match = CIDR_RE.exec(text.trim());
  if (!match) throw new ScanInputError('e.g. 192.168.1.0/24, and only supports 24-32');
  const [, ...groups] = match;
  const octets: number[] = [];
  for (const group of groups.slice(0, 4)) {
    if (group === undefined || (group.length > 1 && group.startsWith('0'))) {
      throw new ScanInputError('e.g. 192.168.1.0/24, and only supports 24-32');
    }
    const n = Number(group);
    if (n > 255) throw new ScanInputError('e.g. 192.168.1.0/24, and only supports 24-32');
    octets.push(n);
  }
  const prefixText = groups[4] ?? '';
  const prefix = Number(prefixText);
  if (
    (prefixText.length > 1 && prefixText.startsWith('0')) ||
    prefix < SCAN_MIN_PREFIX ||
    prefix > SCAN_MAX_PREFIX
  ) {
    throw new ScanInputError('e.g. 192.168.1.0/24, and only supports 24-32');
  }
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  const address = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: (address & mask) >>> 0, prefix };
}

export function ipToString(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The addresses a scan of this range visits, in ascending order. */
export function scanAddresses(cidr: Cidr): number[] {
  const size = 2 ** (32 - cidr.prefix);
  const skipEnds = cidr.prefix <= 30;
  const out: number[] = [];
  for (let i = skipEnds ? 1 : 0; i < (skipEnds ? size - 1 : size); i++) {
    out.push((cidr.network + i) >>> 0);
  }
  return out;
}

export interface ScanOptions {
  /** Connect timeout per address, in milliseconds. */
  timeoutMs?: number;
  /** How many connects are in flight at once. */
  concurrency?: number;
  signal?: AbortSignal;
}

export interface OpenAddress {
  ip: string;
  port: number;
}

/** Scans `cidr` on `port`; resolves to the open addresses sorted ascending. */
export async function runScan(
  cidrText: string,
  port: number,
  options: ScanOptions = {},
): Promise<OpenAddress[]> {
  const cidr = parseCidr(cidrText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ScanInputError('please input the right port');
  }
  const timeoutMs = options.timeoutMs ?? 1500;
  const concurrency = Math.max(1, options.concurrency ?? 64);
  const addresses = scanAddresses(cidr);
  const open: number[] = [];
  let next = 0;

  const worker = async (): Promise<void> => {
    while (next < addresses.length && !options.signal?.aborted) {
      const address = addresses[next++] as number;
      // The signal is checked between probes, not passed to each (one listener per probe on a
      // shared signal would pile up); a stop waits at most one probe timeout.
      const result = await tcpProbe(ipToString(address), port, timeoutMs);
      if (result.open) open.push(address);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, addresses.length) }, worker));
  if (options.signal?.aborted) throw new TaskCancelledError();

  return open.sort((x, y) => x - y).map((address) => ({ ip: ipToString(address), port }));
}
