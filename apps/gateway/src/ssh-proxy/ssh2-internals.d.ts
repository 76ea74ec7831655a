/** The one internal of ssh2 1.x the banner needs (see banner.ts); ssh2 ships no types for it. */
declare module 'ssh2/lib/protocol/utils.js' {
  const utils: { sendPacket?: (protocol: unknown, packet: Buffer) => void };
  export default utils;
}
