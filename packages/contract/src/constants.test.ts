import { describe, expect, it } from 'vitest';
import * as C from './constants';

describe('business constants (spec 1 §9, spec 2 §9)', () => {
  it('holds the limits the specs give', () => {
    expect(C.PAGE_SIZE_DEFAULT).toBe(10);
    expect(C.PAGE_SIZE_MAX).toBe(65535);
    expect(C.PAGE_SIZE_ACTION_LOG).toBe(25);
    expect(C.PAGE_SIZE_CLUSTER_LIST).toBe(20);
    expect(C.REQUEST_TIMEOUT_MS).toBe(60_000);
    expect(C.STATISTICS_TIMEOUT_MS).toBe(8_000);
    expect(C.SHADOW_LIFETIME_SECONDS).toBe(1800);
    expect(C.SHADOW_MAX).toBe(5);
    expect(C.PANEL_SWAP_DELAY_MS).toBe(300);
    expect(C.DOCUMENT_MAX_BYTES).toBe(10_485_760);
    expect(C.AVATAR_MAX_BYTES).toBe(1024 * 1024);
    expect(C.SSO_METADATA_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(C.NAME_MAX).toBe(20);
    expect(C.SSH_KEY_NAME_MAX).toBe(20);
    expect(C.MFA_CODE_LENGTH).toBe(6);
    expect(C.PASSWORD_MIN_LEVEL1).toBe(6);
    expect(C.PASSWORD_MIN_LEVEL2).toBe(8);
    expect(C.FORCED_PASSWORD_CHANGE_DAYS).toBe(90);
    expect(C.LOCKOUT_ATTEMPTS).toBe(10);
    expect(C.LOCKOUT_SECONDS).toBe(3600);
    expect(C.PLAN_EXPIRY_WARN_DAYS).toBe(30);
    expect(C.QUOTA_REMINDER_SILENCE_DAYS).toBe(7);
    expect(C.SESSION_HOLD_MIN_MINUTES).toBe(30);
    expect(C.SESSION_HOLD_MAX_MINUTES).toBe(480);
    expect(C.SESSION_HOLD_DEFAULT_MINUTES).toBe(30);
    expect(C.CLUSTER_MAX_RESOURCES).toBe(1000);
    expect(C.WORKGROUP_MAX_RESOURCES).toBe(1000);
    expect(C.TUNNEL_MIN_SECONDS).toBe(30 * 60);
    expect(C.TUNNEL_MAX_SECONDS).toBe(365 * 86_400);
    expect(C.LOG_END_PADDING_SECONDS).toBe(86_400);
    expect(C.SUBSCRIPTION_MAX_LENGTH).toBe(12);
    expect(C.AGENT_VERSIONS).toEqual({
      windowsWebConnect: '2.4.0',
      rdpMonitor: '2.4.2',
      newConnectFlow: '3.0.0',
    });
    expect(C.CONNECTION_WAYS).toEqual([
      'terminal',
      'wetty',
      'rdp',
      'rds',
      'mysql',
      'mssql',
      'postgresql',
    ]);
    expect(C.LANGUAGES).toEqual(['en_US', 'zh_CN']);
  });

  it('checks team IDs: 2-32 letters or digits', () => {
    for (const ok of ['ab', 'Team42', 'x'.repeat(32)])
      expect(C.TEAM_ID_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['a', 'x'.repeat(33), 'a-b', 'a b', 'ä1'])
      expect(C.TEAM_ID_PATTERN.test(bad), bad).toBe(false);
  });
});
