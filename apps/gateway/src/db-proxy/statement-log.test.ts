import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import { spoolFile } from '../recording/recorder';
import {
  createStatementLog,
  jsonString,
  line,
  STATEMENT_LOG_TEXT_MAX,
  type StatementEntry,
} from './statement-log';

/** What the line was before it was written out by hand. */
function reference(entry: StatementEntry): string {
  return `${JSON.stringify({
    time: new Date(entry.startedAt).toISOString(),
    database: entry.database,
    statement: entry.statement,
    duration_ms: Math.round(entry.durationMs * 1000) / 1000,
    ...(entry.rows !== undefined && { rows: entry.rows }),
    ...(entry.error !== undefined && { error: entry.error }),
    ...(entry.action && { action: entry.action }),
    ...(entry.rule && { rule: entry.rule }),
  })}\n`;
}

describe('statement log line', () => {
  it('is exactly the JSON of the entry, whatever its fields and characters', () => {
    const entries: StatementEntry[] = [
      {
        startedAt: 1_790_000_000_000,
        database: 'shop',
        statement: 'SELECT 1',
        durationMs: 0.1234,
        rows: 1,
      },
      {
        startedAt: 1_790_000_000_007,
        database: 'shop',
        statement: 'SELECT 1',
        durationMs: 0,
        rows: 0,
      },
      { startedAt: 1_790_000_000_999, database: 'shop', statement: 'SELECT 1', durationMs: 2 },
      {
        startedAt: 1_790_000_001_050,
        database: 'we"ird\\db',
        statement: 'SELECT \'a\'\n\t"你好" \u0000 \u2028',
        durationMs: 12.3456789,
        error: 'Table "x" doesn\'t exist',
      },
      {
        startedAt: 1_790_000_002_000,
        database: 'shop',
        statement: 'DELETE FROM orders',
        durationMs: 0,
        action: 'blocked',
        rule: 'DELETE orders',
      },
      {
        startedAt: 1_790_000_003_500,
        database: '',
        statement: 'UPDATE t SET a = 1',
        durationMs: 3,
        rows: 5,
        action: 'notice',
        rule: 'UPDATE t',
      },
    ];
    for (const entry of entries) {
      const written = line(entry, undefined, 'mysql');
      expect(written).toBe(reference(entry));
      expect(JSON.parse(written)).toEqual(JSON.parse(reference(entry)));
    }
  });

  it('quotes every UTF-16 code unit, and surrogate pairs and lone halves, as JSON.stringify does', () => {
    const texts: string[] = ['', 'SELECT 1', '😀 emoji', 'a\ud800', '\udc00b', '\udbff\udfff'];
    for (let unit = 0; unit <= 0xffff; unit++) texts.push(`x${String.fromCharCode(unit)}y`);
    const wrong = texts.filter((t) => jsonString(t) !== JSON.stringify(t));
    expect(wrong).toEqual([]);
  });
});

describe('password literals in the statement log', () => {
  const at = (statement: string, error?: string): StatementEntry => ({
    startedAt: 1_790_000_000_000,
    database: 'mysql',
    statement,
    durationMs: 1,
    ...(error !== undefined && { error }),
  });

  it('are masked in the written line, in the statement and in an error that quotes it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-log-'));
    const log = createStatementLog({
      dir,
      connectionId: 11,
      logger: silentLogger,
      onFailure: () => undefined,
      onSpooled: () => undefined,
      dialect: 'mysql',
    });
    log.write(at("ALTER USER 'app'@'%' IDENTIFIED BY 'Sw0rdfish!'"));
    log.write(
      at(
        "ALTER USERR 'app'@'%' IDENTIFIED BY 'Sw0rdfish!'",
        "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'USERR 'app'@'%' IDENTIFIED BY 'Sw0rdfish!'' at line 1",
      ),
    );
    log.write(at("SET PASSWORD FOR 'app'@'%' = PASSWORD('Sw0rdfish!'); SELECT 1"));
    log.write(at('SELECT password FROM accounts'));
    const rest = await log.close();
    const written = rest!.data.toString('utf8');
    expect(written).not.toContain('Sw0rdfish');
    const lines = written
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { statement: string; error?: string });
    expect(lines.map((l) => l.statement)).toEqual([
      "ALTER USER 'app'@'%' IDENTIFIED BY '********'",
      "ALTER USERR 'app'@'%' IDENTIFIED BY '********'",
      "SET PASSWORD FOR 'app'@'%' = PASSWORD('********'); SELECT 1",
      'SELECT password FROM accounts',
    ]);
    expect(lines[1]!.error).toContain("IDENTIFIED BY '********'' at line 1");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('are masked in a PostgreSQL line, and in a statement cut at the size limit', () => {
    const pg = line(
      at("ALTER ROLE app WITH ENCRYPTED PASSWORD 'Sw0rdfish!'"),
      undefined,
      'postgresql',
    );
    expect(JSON.parse(pg).statement).toBe("ALTER ROLE app WITH ENCRYPTED PASSWORD '********'");
    // The literal is cut in two by the limit: what is left of it is masked all the same.
    const long = `CREATE ROLE app PASSWORD 'Sw0rdfish!${'x'.repeat(STATEMENT_LOG_TEXT_MAX)}'`;
    const cut = JSON.parse(line(at(long), undefined, 'postgresql')).statement as string;
    expect(cut).toBe(`CREATE ROLE app PASSWORD '********' [… ${long.length} characters in all]`);
  });

  it('are masked in an error that quotes a password past the cut', () => {
    const error =
      "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near ''Long#Secret9' ACCOUNT LOCKX' at line 1";
    const statement = `/*${'x'.repeat(STATEMENT_LOG_TEXT_MAX)}*/ ALTER USER u IDENTIFIED BY 'Long#Secret9' ACCOUNT LOCKX`;
    const logged = JSON.parse(line(at(statement, error), undefined, 'mysql')) as {
      statement: string;
      error: string;
    };
    expect(logged.statement).toBe(
      `${statement.slice(0, STATEMENT_LOG_TEXT_MAX)} [… ${statement.length} characters in all]`,
    );
    expect(logged.error).toBe(
      "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near ''********' ACCOUNT LOCKX' at line 1",
    );
    // Lexing a text this long would hold up every session: its error is masked where it quotes.
    const huge = `/*${'x'.repeat(1024 * 1024)}*/ ALTER USER u IDENTIFIED BY 'Long#Secret9' ACCOUNT LOCKX`;
    const hugeError = JSON.parse(line(at(huge, error), undefined, 'mysql')).error as string;
    expect(hugeError).toBe(
      "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '********' at line 1",
    );
    // A long text with no password place keeps its error.
    const plain = `INSERT INTO t VALUES ${"('x'),".repeat(STATEMENT_LOG_TEXT_MAX / 4)}('y')`;
    const dup = "Duplicate entry 'x' for key 'PRIMARY'";
    expect(JSON.parse(line(at(plain, dup), undefined, 'mysql')).error).toBe(dup);
  });
});

describe('a statement log that cannot keep up', () => {
  it('ends the session once, and still writes every line it was given', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-log-'));
    let failures = 0;
    const log = createStatementLog({
      dir,
      connectionId: 7,
      logger: silentLogger,
      onFailure: () => (failures += 1),
      onSpooled: () => undefined,
      dialect: 'mysql',
    });
    // 100 statements of 64 KiB in one tick: far more than the 4 MiB that may wait.
    const big = 'x'.repeat(STATEMENT_LOG_TEXT_MAX - 100);
    for (let i = 0; i < 100; i++) {
      log.write({
        startedAt: Date.now(),
        database: 'db',
        statement: `SELECT '${i}' /* ${big} */`,
        durationMs: 1,
        rows: 1,
      });
    }
    expect(failures).toBe(1);
    await log.close();
    const lines = fs.readFileSync(spoolFile(dir, 7), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(100);
    expect(JSON.parse(lines[99]!).statement).toMatch(/^SELECT '99'/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('a statement log in time', () => {
  const entry = (statement: string): StatementEntry => ({
    startedAt: Date.now(),
    database: 'db',
    statement,
    durationMs: 0.2,
    rows: 1,
  });
  const open = (dir: string, spooled: { count: number }) =>
    createStatementLog({
      dir,
      connectionId: 8,
      logger: silentLogger,
      onFailure: () => undefined,
      onSpooled: () => (spooled.count += 1),
      dialect: 'postgresql',
    });

  it('of a session that ends at once makes no file and hands its lines over', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-log-'));
    const spooled = { count: 0 };
    const before = Date.now();
    const log = open(dir, spooled);
    log.write(entry('SELECT 1'));
    log.write(entry('SELECT 2'));
    const rest = await log.close();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(spooled.count).toBe(0);
    const lines = rest!.data.toString('utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).statement)).toEqual(['SELECT 1', 'SELECT 2']);
    // No later than its first line would have reached the disk.
    const spoolBy = rest && 'spoolBy' in rest ? rest.spoolBy : 0;
    expect(spoolBy).toBeGreaterThanOrEqual(before + 250);
    expect(spoolBy).toBeLessThanOrEqual(Date.now() + 250);
    expect(await open(dir, spooled).close()).toBeUndefined(); // no statement: nothing
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('of a longer session is on disk within 0.25 s of its first line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-log-'));
    const spooled = { count: 0 };
    const log = open(dir, spooled);
    log.write(entry('SELECT 1'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(spooled.count).toBe(1);
    expect(fs.readFileSync(spoolFile(dir, 8), 'utf8')).toContain('SELECT 1');
    log.write(entry('SELECT 2'));
    expect(await log.close()).toBeUndefined();
    const lines = fs.readFileSync(spoolFile(dir, 8), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).statement)).toEqual(['SELECT 1', 'SELECT 2']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('a statement log whose file cannot be made', () => {
  it('ends the session, and keeps its lines for the server', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-log-'));
    fs.writeFileSync(path.join(dir, 'not-a-folder'), '');
    let failures = 0;
    const log = createStatementLog({
      dir: path.join(dir, 'not-a-folder', 'spool'),
      connectionId: 9,
      logger: silentLogger,
      onFailure: () => (failures += 1),
      onSpooled: () => undefined,
      dialect: 'mysql',
    });
    log.write({ startedAt: Date.now(), database: 'db', statement: 'SELECT 9', durationMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(failures).toBe(1);
    const rest = await log.close();
    expect(JSON.parse(rest!.data.toString('utf8')).statement).toBe('SELECT 9');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('a statement log whose disk is full', () => {
  it('ends the session, and hands over every line the file did not take', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-log-'));
    // Every write to /dev/full fails with ENOSPC, as on a full disk.
    fs.symlinkSync('/dev/full', spoolFile(dir, 10));
    let failures = 0;
    const log = createStatementLog({
      dir,
      connectionId: 10,
      logger: silentLogger,
      onFailure: () => (failures += 1),
      onSpooled: () => undefined,
      dialect: 'mysql',
    });
    const statement = (n: number): StatementEntry => ({
      startedAt: Date.now(),
      database: 'db',
      statement: `SELECT ${n}`,
      durationMs: 1,
    });
    log.write(statement(1));
    log.write(statement(2));
    await new Promise((resolve) => setTimeout(resolve, 600)); // on to the file, which fails
    expect(failures).toBe(1);
    // A statement in flight while the session ends ran: its line is kept too.
    log.write(statement(3));
    const rest = await log.close();
    expect(rest && 'fileBytes' in rest && rest.fileBytes).toBe(0);
    const lines = rest!.data.toString('utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).statement)).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
