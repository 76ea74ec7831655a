import { describe, expect, it } from 'vitest';
import {
  CONTROL_PROTOCOL,
  CONTROL_PROTOCOL_MIN,
  GatewayMessageSchema,
  ServerMessageSchema,
} from './control';

describe('control protocol', () => {
  it('still accepts version-1 gateways, which never send session messages', () => {
    expect(CONTROL_PROTOCOL).toBe(2);
    expect(CONTROL_PROTOCOL_MIN).toBe(1);
    expect(GatewayMessageSchema.safeParse({ v: 1, type: 'heartbeat' }).success).toBe(true);
  });

  it('reads the session requests of a gateway', () => {
    for (const message of [
      { type: 'resolve_code', request_id: 'r1', code: 'abc', client_ip: '127.0.0.1' },
      { type: 'resolve_code', request_id: 'r2', code: 'abc', client_ip: '::1', password: 'p' },
      { type: 'session_credential', request_id: 'r3', grant: 'g', username: 'root' },
      {
        type: 'session_start',
        request_id: 'r4',
        grant: 'g',
        client_ip: '127.0.0.1',
        way: 'terminal',
      },
      { type: 'session_end', connection_id: 7 },
    ]) {
      expect(GatewayMessageSchema.safeParse({ v: 2, ...message }).success, message.type).toBe(true);
    }
  });

  it('reads a terminal session an older gateway starts as way ssh as the spec’s terminal', () => {
    const start = (way: string) =>
      GatewayMessageSchema.parse({
        v: 2,
        type: 'session_start',
        request_id: 'r6',
        grant: 'g',
        client_ip: '127.0.0.1',
        way,
      });
    expect(start('ssh')).toMatchObject({ way: 'terminal' });
    expect(start('terminal')).toMatchObject({ way: 'terminal' });
    expect(start('wetty')).toMatchObject({ way: 'wetty' });
    expect(() => start('telnet')).toThrow();
  });

  it('lets a database proxy ask for the session to start with the code’s answer', () => {
    const ask = (start_way: unknown) =>
      GatewayMessageSchema.safeParse({
        v: 2,
        type: 'resolve_code',
        request_id: 'r5',
        code: 'abc',
        client_ip: '127.0.0.1',
        credential_kind: 'postgresql',
        start_way,
      }).success;
    expect(ask('postgresql')).toBe(true);
    expect(ask('ssh')).toBe(false);
    const answer = (started: unknown) =>
      ServerMessageSchema.safeParse({ v: 2, type: 'code_resolved', request_id: 'r5', started })
        .success;
    expect(answer({ connection_id: 9, log_filters: ['secret'], sql_policy: undefined })).toBe(true);
    expect(answer({ log_filters: [] })).toBe(false);
  });

  it('takes a credential with exactly one secret', () => {
    const base = { v: 2, type: 'session_credential_result', request_id: 'r' };
    const target = { host: '127.0.0.1', port: 22, username: 'root' };
    const parse = (credential: object) =>
      ServerMessageSchema.safeParse({ ...base, credential }).success;
    expect(parse({ ...target, password: 'x' })).toBe(true);
    expect(parse({ ...target, private_key: 'k' })).toBe(true);
    expect(parse(target)).toBe(false);
    expect(parse({ ...target, password: 'x', private_key: 'k' })).toBe(false);
  });

  it('reads a resolved code, a refusal and a cut', () => {
    const resolved = {
      tunnel_id: 1,
      type: 'normal',
      company_id: 1,
      account: { id: 2, name: 'Erin', account: 'erin@demo.local' },
      project_id: 3,
      project_resource_id: 4,
      resource: {
        id: 5,
        name: 'web',
        os: 'linux',
        ip_address: '127.0.0.1',
        port: 22,
        network_id: 6,
        databases: [],
      },
      login_users: ['root'],
      safe_mode: 0,
      expire_time: 1,
    };
    const ok = ServerMessageSchema.safeParse({
      v: 2,
      type: 'code_resolved',
      request_id: 'r',
      resolved,
      grant: 'g',
    });
    expect(ok.success).toBe(true);
    expect(
      ServerMessageSchema.safeParse({
        v: 2,
        type: 'code_resolved',
        request_id: 'r',
        refusal: { code: 'TunnelExpire', message: 'The code has expired' },
      }).success,
    ).toBe(true);
    expect(
      ServerMessageSchema.parse({ v: 2, type: 'session_cut', connection_id: 9 }),
    ).toMatchObject({ reason: '' });
  });
});
