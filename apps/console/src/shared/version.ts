/** Set at build time from the repository's package.json (vite.config.ts `define`). */
declare const __PORTCULLIS_VERSION__: string;

/** The product version this console was built as. */
export const PRODUCT_VERSION: string = __PORTCULLIS_VERSION__;
