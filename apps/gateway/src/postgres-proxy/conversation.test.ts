/**
 * The conversation when the connection goes while statements are in flight: what may have run
 * is logged as cut short, what the target skipped is not. Driven message by message, as the
 * relay drives it (client messages in, the target's replies back), without a database.
 */
import type { SqlPolicy } from '@portcullis/contract';
import { describe, expect, it } from 'vitest';
import type { StatementEntry } from '../db-proxy/session';
import { loadSqlParsers } from '../sql-audit';
import { Conversation } from './conversation';
import { errorResponse, message } from './messages';

const CUT = 'the connection closed before its result';

function conversation(policy?: SqlPolicy) {
  const log: StatementEntry[] = [];
  const c = new Conversation('shop', policy, { log: (e) => log.push(e), alarm: () => undefined });
  const client = (raw: Buffer) => c.fromClient(raw[0]!, raw.subarray(5), raw);
  const target = (raw: Buffer) =>
    'CZE'.includes(String.fromCharCode(raw[0]!))
      ? c.onHeld(raw[0]!, raw, 0, raw.length)
      : c.onPassed(raw[0]!);
  const logged = () => log.map((e) => [e.statement, e.error ?? e.rows]);
  return { c, client, target, logged };
}

const parse = (name: string, text: string) => message('P', name, text, Buffer.alloc(2));
const bind = (portal: string, statement: string) =>
  message('B', portal, statement, Buffer.alloc(6));
const execute = (portal: string) => message('E', portal, 0);
const sync = () => message('S');
const complete = (tag: string) => message('C', tag);
const ready = (status = 'I') => message('Z', Buffer.from(status));

describe('a connection that closes with statements in flight', () => {
  it('names the statement a Bind of the same batch put in the portal, not the one before', () => {
    const { c, client, target, logged } = conversation();
    for (const m of [parse('', 'SELECT 1'), bind('', ''), execute(''), sync()]) client(m);
    // In a transaction (status T): the unnamed portal stays, holding SELECT 1.
    const answers = [message('1'), message('2'), message('D'), complete('SELECT 1'), ready('T')];
    for (const m of answers) target(m);
    for (const m of [parse('', 'DELETE FROM orders'), bind('', ''), execute(''), sync()]) client(m);
    c.close();
    expect(logged()).toEqual([
      ['SELECT 1', 1],
      ['DELETE FROM orders', CUT],
    ]);
  });

  it('does not log what follows a refused Parse up to the Sync: the target skipped it', async () => {
    await loadSqlParsers();
    const { c, client, target, logged } = conversation({
      block: [{ op: 'delete', table: 'orders' }],
      notice: [],
      approval: false,
    });
    for (const m of [parse('s1', 'SELECT 1'), sync()]) client(m);
    for (const m of [message('1'), ready()]) target(m);
    for (const m of [parse('s2', 'DELETE FROM orders'), bind('p', 's1'), execute('p'), sync()])
      client(m);
    c.close();
    expect(logged()).toEqual([['DELETE FROM orders', expect.stringMatching(/blocked/)]]);
  });

  it('logs a simple query’s statements up to its error, not those the target skipped', () => {
    const { c, client, target, logged } = conversation();
    client(message('Q', 'SELECT 1; SELECT x; SELECT 3'));
    target(message('D'));
    target(complete('SELECT 1'));
    target(errorResponse({ severity: 'ERROR', code: '42703', message: 'no column x' }));
    c.close();
    expect(logged()).toEqual([
      ['SELECT 1', 1],
      ['SELECT x', 'no column x'],
    ]);
  });
});

describe('a refused statement’s line', () => {
  const DELETE_ORDERS: SqlPolicy = {
    block: [{ op: 'delete', table: 'orders' }],
    notice: [],
    approval: false,
  };

  it('comes after the lines of the statements sent before it, in pipelined queries', async () => {
    await loadSqlParsers();
    const { client, target, logged } = conversation(DELETE_ORDERS);
    client(message('Q', 'SELECT 1'));
    client(message('Q', 'DELETE FROM orders'));
    expect(logged()).toEqual([]);
    for (const m of [message('D'), complete('SELECT 1'), ready()]) target(m);
    target(errorResponse({ severity: 'ERROR', code: '42601', message: 'syntax error' }));
    target(ready());
    expect(logged()).toEqual([
      ['SELECT 1', 1],
      ['DELETE FROM orders', expect.stringMatching(/blocked/)],
    ]);
  });

  it('is written when the target skips it after an earlier error in the batch', async () => {
    await loadSqlParsers();
    const { client, target, logged } = conversation(DELETE_ORDERS);
    for (const m of [
      parse('', 'SELECT x'),
      bind('', ''),
      execute(''),
      parse('', 'DELETE FROM orders'),
      sync(),
    ])
      client(m);
    target(errorResponse({ severity: 'ERROR', code: '42703', message: 'no column x' }));
    target(ready());
    expect(logged()).toEqual([
      ['SELECT x', 'no column x'],
      ['DELETE FROM orders', expect.stringMatching(/blocked/)],
    ]);
  });
});

describe('the rows a statement log line gives', () => {
  it('reads them from the command tag’s last number, else counts the rows that came', () => {
    const { client, target, logged } = conversation();
    const query = (text: string) => message('Q', text);
    const answer = (tag: string, rows = 0) => {
      for (let i = 0; i < rows; i++) target(message('D'));
      target(complete(tag));
      target(ready());
    };
    client(query('INSERT INTO t VALUES (1), (2)'));
    answer('INSERT 0 2');
    client(query('SELECT * FROM t'));
    answer('SELECT 12', 3);
    client(query('CREATE TABLE u (x int)'));
    answer('CREATE TABLE');
    client(query('FETCH ALL IN c'));
    answer('FETCH', 4);
    client(query('MOVE x'));
    answer('MOVE x5', 1);
    expect(logged()).toEqual([
      ['INSERT INTO t VALUES (1), (2)', 2],
      ['SELECT * FROM t', 12],
      ['CREATE TABLE u (x int)', 0],
      ['FETCH ALL IN c', 4],
      ['MOVE x', 1],
    ]);
  });
});

describe('the extended protocol’s statement log', () => {
  it('logs a statement that fails at Parse or Bind with its error (it never ran)', () => {
    const { client, target, logged } = conversation();
    for (const m of [parse('', 'SELECT * FROM nowhere'), bind('', ''), execute(''), sync()])
      client(m);
    target(errorResponse({ severity: 'ERROR', code: '42P01', message: 'no table nowhere' }));
    target(ready());
    for (const m of [parse('s', 'SELECT $1::int'), sync()]) client(m);
    for (const m of [message('1'), ready()]) target(m);
    for (const m of [bind('', 's'), execute(''), sync()]) client(m);
    target(errorResponse({ severity: 'ERROR', code: '22P02', message: 'not an integer' }));
    target(ready());
    expect(logged()).toEqual([
      ['SELECT * FROM nowhere', 'no table nowhere'],
      ['SELECT $1::int', 'not an integer'],
    ]);
  });
});

describe('a client encoding switched by a statement not yet answered', () => {
  const DELETE_ORDERS: SqlPolicy = {
    block: [{ op: 'delete', table: 'orders' }],
    notice: [],
    approval: false,
  };
  // In SJIS, 0x83 0x5C is one character (ソ): the backslash that keeps the DELETE inside the
  // string in UTF-8 is gone, and the string ends before it.
  const hidden = Buffer.concat([
    Buffer.from("SELECT E'"),
    Buffer.from([0x83, 0x5c]),
    Buffer.from("'; DELETE FROM orders; --'\0"),
  ]);

  it('judges a statement sent before the answer as that encoding would read it', async () => {
    await loadSqlParsers();
    const { client } = conversation(DELETE_ORDERS);
    client(message('Q', "SET client_encoding TO 'SJIS'"));
    const sent = client(message('Q', hidden));
    expect(sent.toString('latin1')).toContain('PORTCULLIS BLOCKED');
  });

  it('lets it through once the answers are in and the encoding is known to be UTF-8', async () => {
    await loadSqlParsers();
    const { client, target } = conversation(DELETE_ORDERS);
    client(message('Q', 'SELECT 1'));
    for (const m of [message('D'), complete('SELECT 1'), ready()]) target(m);
    const raw = message('Q', hidden);
    expect(client(raw)).toBe(raw);
  });

  it('passes text in UTF-8 that reads the same in every encoding, pipelined or not', async () => {
    await loadSqlParsers();
    const { client } = conversation(DELETE_ORDERS);
    client(message('Q', 'SELECT 1'));
    const raw = message('Q', "SELECT '中文', E'\\ü' FROM orders");
    expect(client(raw)).toBe(raw);
  });
});

describe('COPY FROM STDIN by a simple query', () => {
  it('keeps the log in step when the client sends a Sync during it (the target ignores it)', () => {
    const { client, target, logged } = conversation();
    client(message('Q', 'COPY orders FROM STDIN'));
    client(sync());
    target(message('G', 0, 0));
    client(message('d', Buffer.from('3\tplum\n')));
    client(message('c'));
    for (const m of [complete('COPY 1'), ready()]) target(m);
    for (const m of [parse('', 'SELECT 1'), bind('', ''), execute(''), sync()]) client(m);
    for (const m of [message('1'), message('2'), message('D'), complete('SELECT 1'), ready()])
      target(m);
    expect(logged()).toEqual([
      ['COPY orders FROM STDIN', 1],
      ['SELECT 1', 1],
    ]);
  });

  it('refuses a request sent in the middle of it (the target would swallow it unanswered)', () => {
    const { client, target } = conversation();
    client(message('Q', 'COPY orders FROM STDIN'));
    target(message('G', 0, 0));
    expect(() => client(message('Q', 'SELECT 1'))).toThrow(/middle of COPY/);
  });
});
