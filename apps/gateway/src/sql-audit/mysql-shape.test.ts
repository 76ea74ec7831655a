import { describe, expect, it } from 'vitest';
import { lexMysql } from './mysql-lexer';
import { plainShape, shapeOf } from './mysql';

/** The reading describeMysql takes the long way (backslash escapes, versioned comments run). */
const LEX = { backslashEscapes: true, versions: { upTo: 999_999, mariadb: false } };

describe('the shape of a plain mysql text, without the lexer', () => {
  it('is the shape and the statement text the long way finds', () => {
    const texts = [
      'SELECT c FROM sbtest1 WHERE id=4711',
      'SELECT c FROM sbtest1 WHERE id=4711;',
      '  select * from t where a = 1 ;  ',
      'SELECT 1e5, 0x1f, 1.5, .5, -7 FROM 9t JOIN t_2 ON t_2.a=9t.b',
      'UPDATE t日1 SET v=v+10 WHERE k IN (1,2,3)',
      'SELECT @v1, $x2 FROM db1.t2 LIMIT 10, 20',
      'SELECT * FROM t WHERE a-1>2*3/4%5',
    ];
    for (const sql of texts) {
      const plain = plainShape(sql);
      const lexed = lexMysql(sql, LEX);
      const segments = lexed.segments
        .map((segment) => sql.slice(segment.start, segment.end).trim())
        .filter((text) => text !== '');
      expect(plain, sql).toEqual({ shape: shapeOf(lexed.canonical), text: segments[0] });
      expect(segments).toHaveLength(1);
    }
  });

  it('leaves texts with quotes, escapes, comments or more statements to the lexer', () => {
    for (const sql of [
      "SELECT 'a'",
      'SELECT "a"',
      'SELECT `a 1` FROM t',
      'SELECT 1 # note',
      'SELECT 1 -- note',
      'SELECT /* note */ 1',
      'SELECT /*!50000 1 */',
      'SELECT 1\\n',
      'SELECT 1; SELECT 2',
      ';',
      '   ',
    ]) {
      expect(plainShape(sql), sql).toBeUndefined();
    }
  });
});
