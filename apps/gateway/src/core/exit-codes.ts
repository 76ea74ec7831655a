/** How `portcullis-gateway` exits, so a supervisor (systemd, the install script) can tell why. */
export const EXIT_OK = 0;
/** Something unexpected; safe to restart. */
export const EXIT_FAILURE = 1;
/** Bad command line, environment or config file: fix the input. */
export const EXIT_USAGE = 2;
/** The server refused the cluster key: restarting will not help. */
export const EXIT_KEY_REJECTED = 3;
/** The server requires a newer gateway: update it (the console shows the update script). */
export const EXIT_UPDATE_REQUIRED = 4;
