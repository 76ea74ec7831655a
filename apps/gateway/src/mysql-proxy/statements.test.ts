/**
 * The MySQL proxy's decision on a text: a USE is read as the server reads it, and a text's
 * bytes are judged as the multibyte character sets a connection may use would read them.
 */
import type { SqlPolicy } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import type { DbSession } from '../db-proxy/session';
import { decide, pairResults, useTarget, type TimedResult } from './statements';

const DELETE_ORDERS: SqlPolicy = {
  block: [{ op: 'delete', table: 'orders' }],
  notice: [],
  approval: false,
};
const sessionWith = (policy?: SqlPolicy) => ({ policy }) as unknown as DbSession;
const onlyShop = (database: string) => database === 'shop';

describe('useTarget', () => {
  it.each([
    ['USE shop', 'shop'],
    ['use `my``db`', 'my`db'],
    ['/* x */ USE information_schema', 'information_schema'],
    ['USE`information_schema`', 'information_schema'],
    ['/*!USE information_schema*/', 'information_schema'],
    ['USE /* c */ information_schema', 'information_schema'],
    ['-- note\nUSE information_schema', 'information_schema'],
  ])('reads %j as the server does: %j', (text, database) => {
    expect(useTarget(text)).toBe(database);
  });

  it('is undefined for other statements', () => {
    expect(useTarget('SELECT user FROM users')).toBeUndefined();
    expect(useTarget("SELECT 'USE mysql'")).toBeUndefined();
  });

  it('refuses a USE behind a comment of a database the resource does not offer', () => {
    const decision = decide('/* x */ USE information_schema', sessionWith(), onlyShop);
    expect(decision).toMatchObject({ pass: false, rule: 'database' });
  });
});

describe('a text in a multibyte character set', () => {
  // GBK: 0xBF 0x60 is one character (縛); read as UTF-8, its second byte is a backtick, and the
  // DELETE is inside a name.
  const gbk = Buffer.concat([
    Buffer.from('SELECT 1 AS `x'),
    Buffer.from([0xbf, 0x60]),
    Buffer.from(', 2 AS `; DELETE FROM orders; SELECT 3 AS ` FROM t'),
    Buffer.from([0xbf, 0x60]),
    Buffer.from('z'),
  ]);

  it('is refused when the reading of any such set holds a blocked statement', () => {
    const text = gbk.toString('utf8');
    expect(decide(text, sessionWith(DELETE_ORDERS), onlyShop, gbk)).toMatchObject({
      pass: false,
    });
  });

  it('passes UTF-8 text whose other readings hold nothing blocked', () => {
    const utf8 = Buffer.from("INSERT INTO notes VALUES ('中文', 'DELETE FROM orders')");
    expect(decide(utf8.toString('utf8'), sessionWith(DELETE_ORDERS), onlyShop, utf8)).toMatchObject(
      { pass: true },
    );
  });
});

describe('pairResults', () => {
  const sentAt = { epoch: 1_000_000, perf: 0 };
  const at = (result: TimedResult['result'], endedAt: number): TimedResult => ({ result, endedAt });

  it('gives a CALL its procedure’s result sets and its own OK, and the next statement its own', () => {
    const { entries } = pairResults(
      [{ text: 'CALL two_sets()', call: true }, { text: 'SELECT 42' }],
      [
        at({ kind: 'rows', rows: 5 }, 1),
        at({ kind: 'rows', rows: 7 }, 2),
        at({ kind: 'ok', rows: 0 }, 3),
        at({ kind: 'rows', rows: 1 }, 4),
      ],
      'shop',
      sentAt,
    );
    expect(entries.map((e) => [e.statement, e.rows])).toEqual([
      ['CALL two_sets()', 12],
      ['SELECT 42', 1],
    ]);
  });

  it('logs the statements after a USE under its database, and keeps it after a later error', () => {
    const { entries, database } = pairResults(
      [{ text: 'USE b', use: 'b' }, { text: 'SELECT 1' }, { text: 'SELECT * FROM nowhere' }],
      [
        at({ kind: 'ok', rows: 0 }, 1),
        at({ kind: 'rows', rows: 1 }, 2),
        at({ kind: 'error', message: 'no table nowhere' }, 3),
      ],
      'a',
      sentAt,
    );
    expect(entries.map((e) => [e.statement, e.database])).toEqual([
      ['USE b', 'a'],
      ['SELECT 1', 'b'],
      ['SELECT * FROM nowhere', 'b'],
    ]);
    expect(database).toBe('b');
  });

  it('stays in the database when the USE fails', () => {
    const { database } = pairResults(
      [{ text: 'USE nope', use: 'nope' }],
      [at({ kind: 'error', message: 'unknown database' }, 1)],
      'a',
      sentAt,
    );
    expect(database).toBe('a');
  });
});
