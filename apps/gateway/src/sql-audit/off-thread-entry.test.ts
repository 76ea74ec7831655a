/** The judge worker started from an entry reached through a symlink, as npm's bin links it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeSqlOffThread, LARGE_TEXT, useJudgeWorkerEntry } from './off-thread';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-judge-entry-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the judge worker’s entry', () => {
  it('runs the file a symlink points at (with tsx when it is TypeScript)', async () => {
    const link = path.join(dir, 'portcullis-gateway');
    fs.symlinkSync(path.join(import.meta.dirname, 'judge-worker-main.ts'), link);
    useJudgeWorkerEntry(link);
    const values = Array.from({ length: 20_000 }, (_, i) => `(${i},'item ${i}')`).join(',');
    const text = `INSERT INTO bulk VALUES ${values}`;
    expect(text.length).toBeGreaterThan(LARGE_TEXT);
    const policy = { block: [{ op: 'delete' as const }], notice: [], approval: false };
    // Before, the worker ran the link without tsx and every such text was refused.
    expect(await judgeSqlOffThread('mysql', text, policy)).toMatchObject({ action: 'pass' });
  }, 60_000);
});
