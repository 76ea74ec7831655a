/** The gateway's own version, reported in hello; the single source is package.json. */
import pkg from '../../package.json' with { type: 'json' };

export const GATEWAY_VERSION: string = pkg.version;
