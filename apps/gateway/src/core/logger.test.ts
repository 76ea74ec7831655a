import { describe, expect, it } from 'vitest';
import { collectLogs } from '../test/logs';
import { createLogger, sanitize } from './logger';

describe('logger', () => {
  it('writes pino-shaped JSON lines and honours the level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', write: (l) => lines.push(l) });
    logger.info('hidden');
    logger.warn({ task_id: 't1' }, 'shown');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string);
    expect(record).toMatchObject({
      level: 40,
      name: 'portcullis-gateway',
      task_id: 't1',
      msg: 'shown',
    });
    expect(typeof record.time).toBe('number');
  });

  it('redacts credential-named fields at any depth and reduces errors to name and code', () => {
    const err = Object.assign(new Error("Access denied for user 'x' using password hunter2"), {
      code: 'ER_ACCESS_DENIED_ERROR',
    });
    expect(
      sanitize({
        password: 'hunter2',
        nested: { private_key: '-----BEGIN', Authorization: 'Bearer k', list: [{ key: 'k2' }] },
        err,
        host: 'db',
      }),
    ).toEqual({
      password: '[redacted]',
      nested: {
        private_key: '[redacted]',
        Authorization: '[redacted]',
        list: [{ key: '[redacted]' }],
      },
      err: { type: 'Error', code: 'ER_ACCESS_DENIED_ERROR' },
      host: 'db',
    });
  });

  it('children carry their bindings', () => {
    const logs = collectLogs();
    logs.logger.child({ component: 'control' }).info('x');
    expect(logs.records()[0]).toMatchObject({ component: 'control', msg: 'x' });
  });
});
