import { describe, expect, it } from 'vitest';
import { isInsecureRemoteHttp, isLoopbackHost } from './loopback';

describe('loopback addresses', () => {
  it('knows this machine by name and address, and nothing else', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['10.0.0.5', '127.0.0.1.example.com', 'localhost.example', '[::2]']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('calls plain http:// to another machine insecure, and nothing else', () => {
    expect(isInsecureRemoteHttp('http://10.0.0.5:8080')).toBe(true);
    expect(isInsecureRemoteHttp('http://bastion/portcullis')).toBe(true);
    expect(isInsecureRemoteHttp('http://127.0.0.1.example.com')).toBe(true);
    expect(isInsecureRemoteHttp('http://localhost:8080')).toBe(false);
    expect(isInsecureRemoteHttp('http://[::1]:8080/')).toBe(false);
    expect(isInsecureRemoteHttp('https://bastion.example.com')).toBe(false);
  });
});
