/**
 * The published gateway version: the one in this repository's apps/gateway, which this server
 * also serves as the bundle the install script fetches.
 */
import fs from 'node:fs';
import path from 'node:path';

function readVersion(): string {
  const file = path.resolve(import.meta.dirname, '../../../../gateway/package.json');
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export const PUBLISHED_GATEWAY_VERSION = readVersion();
