import { describe, expect, it } from 'vitest';
import { sessionRedirect } from './router';

describe('session errors', () => {
  it('send shell pages to the screen the session owes', () => {
    expect(sessionRedirect('NeedLogin', '/personal/info')).toBe('/login');
    expect(sessionRedirect('NeedMfaLogin', '/personal/info')).toBe('/mfaComfirm');
    expect(sessionRedirect('NeedChangePassword', '/operation/dashboard')).toBe(
      '/compelChangePassword',
    );
    expect(sessionRedirect('NeedBindMfa', '/operation/dashboard')).toBe('/mfaOpen');
  });

  it('leave the public screens and the screen itself alone', () => {
    expect(sessionRedirect('NeedLogin', '/login')).toBeNull();
    expect(sessionRedirect('NeedLogin', '/register')).toBeNull();
    expect(sessionRedirect('NeedLogin', '/resetpassword')).toBeNull();
    expect(sessionRedirect('NeedBindMfa', '/mfaOpen')).toBeNull();
    expect(sessionRedirect('NeedLogin', '/mfaOpen')).toBe('/login');
  });

  it('ignore other codes', () => {
    expect(sessionRedirect('NeedPrivilege', '/personal/info')).toBeNull();
  });
});
