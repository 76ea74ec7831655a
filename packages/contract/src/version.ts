/**
 * Agent version comparison (spec 1 §9): features switch on at 2.4.0, 2.4.2 and 3.0.0.
 * Versions are dotted numbers; a missing part counts as 0 and a suffix after '-' is ignored.
 */
import { AGENT_VERSIONS } from './constants';

function parts(version: string): number[] {
  const core = version.trim().replace(/^v/i, '').split('-')[0] ?? '';
  return core.split('.').map((p) => {
    const n = Number.parseInt(p, 10);
    return Number.isFinite(n) && n >= 0 ? n : 0;
  });
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  const len = Math.max(pa.length, pb.length);
  for (let i = 0; i < len; i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export function versionAtLeast(version: string | null | undefined, min: string): boolean {
  if (!version) return false;
  return compareVersions(version, min) >= 0;
}

export function supportsWindowsWebConnect(version: string | null | undefined): boolean {
  return versionAtLeast(version, AGENT_VERSIONS.windowsWebConnect);
}

export function supportsRdpMonitor(version: string | null | undefined): boolean {
  return versionAtLeast(version, AGENT_VERSIONS.rdpMonitor);
}

/** 3.0.0 and above use the new connect, scan and assistance flows. */
export function usesNewConnectFlow(version: string | null | undefined): boolean {
  return versionAtLeast(version, AGENT_VERSIONS.newConnectFlow);
}

export function needsUpdate(current: string | null | undefined, latest: string): boolean {
  if (!current) return false;
  return compareVersions(current, latest) < 0;
}
