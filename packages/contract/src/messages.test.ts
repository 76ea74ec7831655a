import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';

describe('form and notice messages', () => {
  it('are the exact strings the spec quotes', () => {
    // Copied from spec 1 §2.2, §2.3, §5 and §8, and spec 2 §8.
    const quoted: Partial<Record<keyof typeof MESSAGES, string>> = {
      passwordLevel1:
        'The password must be at least 6 characters long and must contain two uppercase letters, lowercase letters, and special characters.',
      passwordLevel2:
        'The password must be at least 8 characters long and must contain uppercase letters, lowercase letters, and special characters.',
      passwordRequired: 'Please enter your password!',
      passwordAgainRequired: 'Please enter your password again!',
      passwordMismatch: 'Two passwords are not consistent!',
      mfaCode: 'Enter the 6-digit security code',
      fileTooLarge10M: 'The maximum supported file size is 10M.',
      fileTooLarge1M: 'The maximum supported file size is 1M.',
      loginSuccess: 'Login Successfully!',
      resetMailSent:
        'Submitted successfully! Please click the link in the message to set the password. ',
      passwordChangedRelogin: 'Modify password successfully,Please Re Login',
      registerSuccess: 'Register Successfully!',
      registerFailed: 'Register failed!',
      verificationCodeError: 'Verification code error',
      checkSsoFailed: 'Check SSO Failed',
      noData: 'No Data',
      noMoreData: 'No More Data',
    };
    for (const [key, text] of Object.entries(quoted)) {
      expect(MESSAGES[key as keyof typeof MESSAGES].en, key).toBe(text);
    }
  });

  it('each have an English and a Chinese text', () => {
    for (const [key, m] of Object.entries(MESSAGES)) {
      expect(m.en.trim(), key).not.toBe('');
      expect(m.zh.trim(), key).not.toBe('');
      expect(m.zh, key).not.toBe(m.en);
    }
  });
});
