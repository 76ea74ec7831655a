import { CONTROL_PATH } from './protocol';

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
