/** Epoch seconds, the unit of every time on the wire and in the database. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
