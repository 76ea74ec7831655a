/**
 * The gateway files this server hands out: the install script (with the published version
 * written into it) and the gateway bundles, one JavaScript file per version in
 * apps/gateway/dist (gitignored).
 *
 * The published version's bundle is built from this checkout's gateway source by
 * apps/gateway/scripts/bundle.mjs (esbuild, which the server's tsx already depends on) the
 * first time a process needs it, so a fresh clone serves it without a build step and a
 * source change is never shadowed by an old file of the same version. Other versions are
 * served when their file is in the folder (kept from earlier builds); none is built for them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { GATEWAY_VERSION_PATTERN } from '@portcullis/contract';
import { PUBLISHED_GATEWAY_VERSION } from '../clusters/gateway-version';
import { SCRIPT_KEY, SCRIPT_SERVER } from './script-values';

const run = promisify(execFile);
const GATEWAY_DIR = path.resolve(import.meta.dirname, '../../../../gateway');
export const GATEWAY_DIST_DIR = path.join(GATEWAY_DIR, 'dist');
const BUNDLE_SCRIPT = path.join(GATEWAY_DIR, 'scripts', 'bundle.mjs');
const INSTALL_TEMPLATE = path.join(import.meta.dirname, 'install.sh');

/** Where the bundle of `version` lives (whether or not it exists). */
export function bundlePath(version: string): string {
  if (!GATEWAY_VERSION_PATTERN.test(version)) throw new TypeError('not a gateway version');
  return path.join(GATEWAY_DIST_DIR, `portcullis-gateway-${version}.js`);
}

let publishedBuild: Promise<string> | null = null;

/** Builds the published bundle once per process (concurrent callers share the build). */
function buildPublished(): Promise<string> {
  publishedBuild ??= run(process.execPath, [BUNDLE_SCRIPT, '--out-dir', GATEWAY_DIST_DIR], {
    timeout: 120_000,
  }).then(
    () => bundlePath(PUBLISHED_GATEWAY_VERSION),
    (error: unknown) => {
      publishedBuild = null;
      throw new Error('building the gateway bundle failed', { cause: error });
    },
  );
  return publishedBuild;
}

/** The bundle file of a version, or null when this server has none for it. */
export async function bundleFile(
  version: string = PUBLISHED_GATEWAY_VERSION,
): Promise<string | null> {
  if (version === PUBLISHED_GATEWAY_VERSION) return buildPublished();
  const file = bundlePath(version);
  return fs.existsSync(file) ? file : null;
}

let template: string | null = null;

/**
 * The install script, with the published version, the server's address and the cluster key
 * the caller proved written in (each checked against the script's own rules; one that fails
 * is left out, and the script then asks for it in the environment). It is served only to
 * that key, so it tells its holder nothing new, and the key need not be on `sudo`'s command
 * line.
 */
export function installScript(server: string, key: string): string {
  if (!GATEWAY_VERSION_PATTERN.test(PUBLISHED_GATEWAY_VERSION)) {
    throw new Error(`unusable published gateway version ${PUBLISHED_GATEWAY_VERSION}`);
  }
  template ??= fs.readFileSync(INSTALL_TEMPLATE, 'utf8');
  return template
    .replace('@@PUBLISHED_VERSION@@', PUBLISHED_GATEWAY_VERSION)
    .replace('@@SERVER@@', SCRIPT_SERVER.test(server) ? server : '')
    .replace('@@KEY@@', SCRIPT_KEY.test(key) ? key : '');
}
