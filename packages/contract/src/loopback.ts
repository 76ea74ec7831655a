/**
 * A server address's host that can only be this machine, so that a control channel to it
 * never crosses a network: the gateway takes plain http:// only to such a host, and the
 * console warns when the server's own address is not one.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A plain http:// address whose host is not this machine. */
export function isInsecureRemoteHttp(address: string): boolean {
  const host = /^http:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(address)?.[1];
  return host !== undefined && !isLoopbackHost(host);
}
