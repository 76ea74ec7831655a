import { describe, expect, it } from 'vitest';
import { GatewayMessageSchema, ServerMessageSchema } from './control';
import { fillText, SECURITY_MODE_TEXT } from './security-mode';

describe('security mode and the file log on the control channel', () => {
  it('carries a session policy with session_started', () => {
    const started = ServerMessageSchema.parse({
      v: 2,
      type: 'session_started',
      request_id: 'r',
      connection_id: 4,
      policy: { intercept: ['rm'], notice: ['whoami'] },
    });
    expect(started.type === 'session_started' && started.policy).toEqual({
      intercept: ['rm'],
      notice: ['whoami'],
    });
  });

  it('reads alarms and file transfers, and refuses what they do not allow', () => {
    const ok = [
      { type: 'command_alarm', connection_id: 4, action: 'intercept', command: 'rm x', rule: 'rm' },
      { type: 'file_transfer', connection_id: 4, way: 'sftp', op: 'upload', filename: '/tmp/a' },
    ];
    for (const m of ok) expect(GatewayMessageSchema.safeParse({ v: 2, ...m }).success).toBe(true);
    const bad = [
      { type: 'command_alarm', connection_id: 4, action: 'allow', command: 'x', rule: 'x' },
      {
        type: 'command_alarm',
        connection_id: 4,
        action: 'notice',
        command: 'x'.repeat(2001),
        rule: 'x',
      },
      { type: 'file_transfer', connection_id: 4, way: 'terminal', op: 'upload', filename: 'a' },
      { type: 'file_transfer', connection_id: 4, way: 'scp', op: 'delete', filename: 'a' },
    ];
    for (const m of bad) expect(GatewayMessageSchema.safeParse({ v: 2, ...m }).success).toBe(false);
  });

  it('fills the texts in both languages', () => {
    const values = { command: 'rm -rf /', rule: 'rm' };
    expect(fillText(SECURITY_MODE_TEXT.blocked.en, values)).toContain('"rm -rf /" is an intercept');
    expect(fillText(SECURITY_MODE_TEXT.blocked.zh, values)).toContain('“rm -rf /”');
    expect(fillText('{unknown} stays', {})).toBe('{unknown} stays');
  });
});
