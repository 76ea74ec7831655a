import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  needsUpdate,
  supportsRdpMonitor,
  supportsWindowsWebConnect,
  usesNewConnectFlow,
  versionAtLeast,
} from './version';

describe('agent versions (spec 1 §9, spec 2 §9)', () => {
  it('compares dotted numbers numerically, a missing part counting as 0', () => {
    expect(compareVersions('2.4.0', '2.4.0')).toBe(0);
    expect(compareVersions('2.4', '2.4.0')).toBe(0);
    expect(compareVersions('2.3.9', '2.4.0')).toBeLessThan(0);
    expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
    expect(compareVersions('3.0.0', '2.99.99')).toBeGreaterThan(0);
    expect(compareVersions('2.4.0.1', '2.4.0')).toBeGreaterThan(0);
    expect(compareVersions(' v3.1 ', '3.1.0')).toBe(0);
    // A pre-release suffix is ignored: '3.0.0-beta' is treated as 3.0.0.
    expect(compareVersions('3.0.0-beta', '3.0.0')).toBe(0);
  });

  it('turns on Windows web connect at 2.4.0', () => {
    expect(supportsWindowsWebConnect('2.3.99')).toBe(false);
    expect(supportsWindowsWebConnect('2.4.0')).toBe(true);
    expect(supportsWindowsWebConnect('2.4')).toBe(true);
    expect(supportsWindowsWebConnect('3.0.0')).toBe(true);
  });

  it('turns on the RDP monitor option at 2.4.2', () => {
    expect(supportsRdpMonitor('2.4.0')).toBe(false);
    expect(supportsRdpMonitor('2.4.1')).toBe(false);
    expect(supportsRdpMonitor('2.4.2')).toBe(true);
    expect(supportsRdpMonitor('2.5')).toBe(true);
  });

  it('uses the new connect flow from 3.0.0', () => {
    expect(usesNewConnectFlow('2.9.9')).toBe(false);
    expect(usesNewConnectFlow('3.0.0')).toBe(true);
    expect(usesNewConnectFlow('3.0.0-beta')).toBe(true);
    expect(usesNewConnectFlow('v3.1')).toBe(true);
    expect(usesNewConnectFlow('10.0.0')).toBe(true);
  });

  it('treats an unknown version as too old for everything, and as not needing an update', () => {
    for (const v of [null, undefined, '']) {
      expect(versionAtLeast(v, '0.0.1')).toBe(false);
      expect(supportsWindowsWebConnect(v)).toBe(false);
      expect(supportsRdpMonitor(v)).toBe(false);
      expect(usesNewConnectFlow(v)).toBe(false);
      expect(needsUpdate(v, '3.0.0')).toBe(false);
    }
  });

  it('says an older agent needs an update', () => {
    expect(needsUpdate('2.4.2', '3.0.0')).toBe(true);
    expect(needsUpdate('3.0.0', '3.0.0')).toBe(false);
    expect(needsUpdate('3.0.1', '3.0.0')).toBe(false);
  });
});
