import { describe, expect, it } from 'vitest';
import {
  ERRORS,
  errorStatus,
  fillPlaceholders,
  formatError,
  isErrorCode,
  type ErrorCode,
} from './errors';

/** The codes spec 1 §8 names, in its order (the table and the 'notable server codes'). */
const SPEC1_CODES = [
  'NeedLogin',
  'FileEmptyError',
  'FileTypeError',
  'FileDataError',
  'FileResourceExist',
  'ResourceExist',
  'ResourceExceeded',
  'CaptchaIncorrect',
  'OSSFileArchived',
  'OSSFileRestoring',
  'NeedPrivilege',
  'TooManyShadows',
  'AccountLocked',
  'InvalidPassword',
  'PasswordError',
  'IPNotInWhiteList',
  'AccountDisabled',
  'MfaCodeError',
  'MfaKeyError',
  'NeedMfaLogin',
  'TunnelExpire',
  'TunnelIsOnline',
  'AgentError',
  'ConnectionIDNotFound',
  'TaskExpired',
  'TimeNotValid',
  'ExpireTimeTooBig',
  'CommandExist',
  'NetworkSafeModeNotOpen',
  'ApplicationExist',
  'NeedApplicationSafeMode',
  'AccountPubKeyError',
  'AccountPubKeyExist',
  'ResetLinkExpire',
];

/**
 * Spec 2 §8 'Known codes', in its order. The spec names the not-found codes by what is not
 * found ('file, quick links, workgroup resource, …'); the catalogue calls them <Thing>NotFound,
 * with workgroup = Project and cluster = Network as everywhere else. 'A sales-system
 * exception' has no name in the spec; the catalogue calls it SalesSystemError.
 */
const SPEC2_CODES = [
  'RequestTimeout',
  'UnknowError',
  'NeedLogin',
  'NeedPrivilege',
  'DomainInUse',
  'LoginFailed',
  'VerifyFailed',
  'AlreadySendSMS',
  'FileNotFound',
  'QuickLinkNotFound',
  'ProjectResourceNotFound',
  'LogFilterNotFound',
  'ProjectNotFound',
  'NetworkNotFound',
  'PlanNotFound',
  'SkuNotFound',
  'BillNotFound',
  'NoteNotFound',
  'CompanyNotFound',
  'AccountNotFound',
  'ResourceNotFound',
  'TunnelNotFound',
  'SubscriptionNotFound',
  'SqlApplicationNotFound',
  'AccountPubKeyNotFound',
  'TunnelConnectionNotFound',
  'GroupNotFound',
  'ProjectGroupNotFound',
  'GroupAccountNotFound',
  'InvalidInstanceId.NotFound',
  'EndpointRequire',
  'InvalidParameter',
  'BatchCreateFailed',
  'BatchDeleteFailed',
  'LDAPError',
  'AccountExist',
  'DeleteSelf',
  'RemovingSelf',
  'Locked',
  'TunnelIsOnline',
  'TunnelExpire',
  'NetworkExceeded',
  'NetworkHasResources',
  'NetworkHasBeenShared',
  'AccountExceeded',
  'ResourceExceeded',
  'NetmaskTooSmall',
  'ResetLinkExpire',
  'CaptchaIncorrect',
  'VerificationCodeIncorrect',
  'SubscribeForbidden',
  'EmailSendFail',
  'SMSSendFail',
  'ProjectNameExist',
  'NetworkNameExist',
  'GroupNameExist',
  'ResourceNameExist',
  'ProjectExist',
  'NetworkUnavailable',
  'ExpireTimeTooBig',
  'AgentAlreadyInstall',
  'SharedNetworkCannotChangeLogFilter',
  'NetworkCannotShare',
  'NetworkAlreadyShared',
  'MustBeLinuxServer',
  'SetAutologinFailed',
  'UpgradeSubscriptionFailed',
  'CannotUpgradeSubscription',
  'SubscribeOvertime',
  'SubscriptionFailed',
  'Timeout',
  'TimeNotValid',
  'HostsTypeError',
  'NeedRenewOrUpdate',
  'InvoiceTitleNeedCheck',
  'NeedInvoiceTitleAndAddress',
  'NeedInvoiceSubscriptions',
  'SalesSystemError',
  'CommandExist',
  'NetworkSafeModeNotOpen',
  'ApplicationExist',
  'NeedApplicationSafeMode',
  'MfaCodeError',
  'MfaKeyError',
  'NeedMfaLogin',
  'AccountPubKeyError',
  'AccountPubKeyExist',
  'RefreshTokenNotExists',
  'InvalidToken',
  'AccountNotAllowDelete',
  'ProjectAccountExist',
  'AgentError',
  'IncorrectInstanceStatus',
  'TooManyShadows',
  'ConnectionIDNotFound',
  'TaskExpired',
  'AccountLocked',
  'GroupExist',
  'ProjectGroupExist',
  'GroupAccountExist',
  'InvalidPassword',
  'PasswordError',
  'InvalidResource',
  'IPNotInWhiteList',
  'AccountDisabled',
  'AkError',
  'PermissionError',
  'ParamError',
];

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1] ?? '').sort();
}

describe('error catalogue', () => {
  it('holds every code spec 1 §8 and spec 2 §8 name', () => {
    const missing = [...SPEC1_CODES, ...SPEC2_CODES].filter((code) => !isErrorCode(code));
    expect(missing).toEqual([]);
  });

  it('gives every code an English and a Chinese text, the same placeholders, and a 4xx/5xx status', () => {
    for (const [code, def] of Object.entries(ERRORS)) {
      expect(def.en.trim(), code).not.toBe('');
      expect(def.zh.trim(), code).not.toBe('');
      expect(def.status, code).toBeGreaterThanOrEqual(400);
      expect(def.status, code).toBeLessThan(600);
      expect(placeholders(def.zh), code).toEqual(placeholders(def.en));
    }
  });

  it('uses the texts the specs quote', () => {
    const quoted: [ErrorCode, string][] = [
      ['NeedLogin', 'Need login.'],
      ['AccountDisabled', 'User disabled'],
      ['AgentError', 'Agent is not online'],
      ['TimeNotValid', 'Need future time'],
      ['NetworkHasResources', 'Cluster still has resources'],
      ['NetworkSafeModeNotOpen', 'cluster safe_mode is not open'],
      ['VerificationCodeIncorrect', 'Verification code error'],
      ['FileEmptyError', 'The resource list is empty. Please check again!'],
      ['FileTypeError', 'Please upload the correct form!'],
      ['ResourceExceeded', 'Exceeding the maximum number of resources'],
    ];
    for (const [code, text] of quoted) expect(formatError(code, 'en_US'), code).toBe(text);
    expect(formatError('ResourceExist', 'en_US', { ips: '10.0.0.1,10.0.0.2' })).toBe(
      'Intranet IP: 10.0.0.1,10.0.0.2 exist!',
    );
    expect(formatError('FileTooLarge', 'en_US', { size: '1M' })).toBe(
      'The maximum supported file size is 1M.',
    );
  });

  it('answers with the statuses the codes mean', () => {
    expect(errorStatus('NeedLogin')).toBe(401);
    expect(errorStatus('NeedPrivilege')).toBe(403);
    expect(errorStatus('InvalidParameter')).toBe(400);
    expect(errorStatus('UnknowError')).toBe(500);
    expect(errorStatus('FileTooLarge')).toBe(413);
    for (const code of Object.keys(ERRORS).filter((c) => c.endsWith('NotFound'))) {
      expect(errorStatus(code as ErrorCode), code).toBe(404);
    }
  });

  it('fills named placeholders in both languages', () => {
    expect(formatError('InvalidParameter', 'en_US', { field: 'name' })).toBe(
      'Invalid parameter: name',
    );
    expect(formatError('InvalidParameter', 'zh_CN', { field: 'name' })).toBe('参数错误：name');
    const params = { row: 3, column: 'B', reason: 'bad IP' };
    expect(formatError('FileDataError', 'en_US', params)).toBe('Row 3, column B: bad IP');
    expect(formatError('FileDataError', 'zh_CN', params)).toBe('第3行第B列：bad IP');
    expect(formatError('NetmaskTooSmall', 'zh_CN', { ip: '10.0.0.0' })).toContain('10.0.0.0/24');
  });

  it('leaves a placeholder without a value as written, and ignores extra values', () => {
    expect(formatError('InvalidParameter', 'en_US')).toBe('Invalid parameter: {field}');
    expect(fillPlaceholders('{a} and {b}', { a: 1, c: 2 })).toBe('1 and {b}');
    expect(fillPlaceholders('{toString}', {})).toBe('{toString}');
    expect(formatError('NeedLogin', 'zh_CN', { field: 'x' })).toBe('需要登录。');
  });

  it('knows its own codes and nothing else', () => {
    expect(isErrorCode('NeedLogin')).toBe(true);
    expect(isErrorCode('InvalidInstanceId.NotFound')).toBe(true);
    for (const v of ['toString', 'constructor', '__proto__', 'needlogin', '', 42, null]) {
      expect(isErrorCode(v), String(v)).toBe(false);
    }
  });
});
