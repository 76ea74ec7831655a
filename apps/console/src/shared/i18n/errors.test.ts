import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { ApiError } from '../api/client';
import { errorText } from './errors';

describe('errorText', () => {
  const t = i18next.getFixedT('zh_CN');

  it("translates a code by the catalogue, whatever the server's text", () => {
    const error = new ApiError(403, { code: 'AccountDisabled', error_message: 'User disabled' });
    expect(errorText(error, t)).toBe('用户已禁用');
  });

  it('uses the server text when the catalogue text has placeholders only it can fill', () => {
    const error = new ApiError(400, {
      code: 'WhitelistExcludesSelf',
      error_message: '管理员白名单必须包含您当前的地址 192.0.2.7',
    });
    expect(errorText(error, t)).toBe('管理员白名单必须包含您当前的地址 192.0.2.7');
  });

  it('fills the field of InvalidParameter, and falls back to the server text for unknown codes', () => {
    const invalid = new ApiError(400, {
      code: 'InvalidParameter',
      error_message: 'x',
      field: 'name',
    });
    expect(errorText(invalid, t)).toBe('参数错误：name');
    const unknown = new ApiError(400, { code: 'SomethingNew', error_message: 'Something new' });
    expect(errorText(unknown, t)).toBe('Something new');
  });
});
