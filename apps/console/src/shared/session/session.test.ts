import { describe, expect, it } from 'vitest';
import { account } from '../../test/fixtures';
import { pendingStepPath } from './session';

describe('pendingStepPath', () => {
  it('sends a password change the server asks for to the forced-change screen', () => {
    const owes = account({ op: 'change_pwd', password_strength: { level: 1, password_ok: true } });
    expect(pendingStepPath(owes)).toBe('/compelChangePassword');
  });

  it("leaves a password below a raised strength level to the shell's gate", () => {
    const weak = account({ op: 'change_pwd', password_strength: { level: 2, password_ok: false } });
    expect(pendingStepPath(weak)).toBeNull();
  });

  it('sends a team MFA without a binding to /mfaOpen, and a team without a plan to /purchase', () => {
    expect(pendingStepPath(account({ company_mfa: true, otp_enabled: false }))).toBe('/mfaOpen');
    expect(pendingStepPath(account({ current_plan: null }))).toBe('/purchase');
    expect(pendingStepPath(account())).toBeNull();
  });
});
