/**
 * What the install script accepts as the server's address and the cluster key (install.sh
 * checks the same), so that a value put into a command or into the script itself can never
 * break out of its single quotes.
 */
export const SCRIPT_SERVER = /^https?:\/\/[A-Za-z0-9.:/_~-]+$/;
export const SCRIPT_KEY = /^pck_[A-Za-z0-9_-]{1,196}$/;
