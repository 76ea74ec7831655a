import { isLoopbackHost } from '@portcullis/contract';
import { CONTROL_PATH } from './protocol';

/**
 * Why a plain http:// server is refused unless it is this machine: the control channel
 * carries the cluster key and every session's target credential.
 */
export function insecureServerProblem(server: string): string | null {
  const url = new URL(server);
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return null;
  return (
    `--server ${url.origin} is plain http:// to another machine: the control channel would ` +
    'carry the cluster key and the targets’ passwords and keys in clear. Give an https:// ' +
    'server, or pass --insecure-http (env PORTCULLIS_GATEWAY_INSECURE_HTTP=1, config ' +
    '"insecure_http": true) to accept that on a network you trust'
  );
}

/**
 * The control channel's WebSocket address for a server given as `http(s)://host[:port][/prefix]`:
 * ws(s) on the same host, at the prefix followed by CONTROL_PATH. Throws a TypeError with a
 * message fit for the operator when the address is not usable.
 */
export function controlUrl(server: string): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new TypeError(`--server must be an http:// or https:// address (got "${server}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`--server must be an http:// or https:// address (got "${url.protocol}")`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('--server must not carry credentials; the cluster key goes in --key');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError('--server must not have a query or fragment');
  }
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = url.pathname.replace(/\/+$/, '') + CONTROL_PATH;
  return url;
}
