/**
 * Empty spool files kept for the next sessions. Every session (a terminal recording, a
 * statement log) spools to a file of its own, and on some filesystems making a file costs far
 * more than renaming one: on the ext4 of the bench machine a create takes about 1 ms of kernel
 * time, a rename 0.04 ms, and a database connection's setup waits for it. So an uploaded spool
 * is emptied (truncated to nothing, so no byte of it outlives its upload) and renamed to a
 * blank instead of deleted, and a new session's spool is a blank renamed into place.
 *
 * Blanks live in the spool folder as `.blank-<pid>-<n>` (never a spool name the uploader
 * reads). Only the process that uploads keeps a stock: it is the one that has finished spools
 * to recycle. A stock is per folder and per process; blanks a previous run left are removed
 * when its uploader starts again ({@link removeLeftBlanks}).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Blanks kept per folder: enough for a burst of connections, a few inodes in all. */
const STOCK_MAX = 32;
const BLANK_PREFIX = '.blank-';

interface Stock {
  ready: string[];
  /** Being emptied and renamed now: counted against the limit. */
  busy: number;
  next: number;
}

const stocks = new Map<string, Stock>();
const stockOf = (dir: string): Stock => {
  let stock = stocks.get(dir);
  if (!stock) stocks.set(dir, (stock = { ready: [], busy: 0, next: 0 }));
  return stock;
};

/**
 * Puts an empty file at `file` from the stock of its folder: true when it did; false when there
 * is no blank (or `file` exists already), and the caller makes the file as usual.
 */
export function placeBlank(file: string): boolean {
  const stock = stocks.get(path.dirname(file));
  if (!stock || stock.ready.length === 0 || fs.existsSync(file)) return false;
  for (let blank = stock.ready.pop(); blank; blank = stock.ready.pop()) {
    try {
      fs.renameSync(blank, file);
      return true;
    } catch {
      // Gone (removed by hand): try the next.
    }
  }
  return false;
}

/**
 * An uploaded spool: emptied and kept as a blank, or deleted when the stock is full or it
 * cannot be reused. Resolves once the spool's name is free; rejects only when it cannot be
 * deleted either.
 */
export async function recycleSpool(file: string): Promise<void> {
  const dir = path.dirname(file);
  const stock = stockOf(dir);
  if (stock.ready.length + stock.busy >= STOCK_MAX) {
    return fs.promises.rm(file, { force: true });
  }
  stock.busy += 1;
  const blank = path.join(dir, `${BLANK_PREFIX}${process.pid}-${stock.next++}`);
  try {
    await fs.promises.truncate(file, 0);
    await fs.promises.rename(file, blank);
    stock.ready.push(blank);
  } catch {
    await fs.promises.rm(file, { force: true });
  } finally {
    stock.busy -= 1;
  }
}

/** Removes the blanks a previous run left in `dir` (its stock is gone with it). */
export function removeLeftBlanks(dir: string, names: string[]): void {
  const mine = stocks.get(dir);
  for (const name of names) {
    if (!name.startsWith(BLANK_PREFIX)) continue;
    const file = path.join(dir, name);
    if (mine?.ready.includes(file)) continue;
    fs.rmSync(file, { force: true });
  }
}
