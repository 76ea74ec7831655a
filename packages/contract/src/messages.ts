/**
 * The product's exact English form and notice texts from the spec (quoted strings), with their
 * Chinese translations. The console's form rules and notices use these, so each rule's message
 * is written once, next to the rule it belongs to.
 */
export const MESSAGES = {
  passwordRequired: { en: 'Please enter your password!', zh: '请输入密码！' },
  passwordAgainRequired: { en: 'Please enter your password again!', zh: '请再次输入密码！' },
  passwordMismatch: { en: 'Two passwords are not consistent!', zh: '两次输入的密码不一致！' },
  passwordLevel1: {
    en: 'The password must be at least 6 characters long and must contain two uppercase letters, lowercase letters, and special characters.',
    zh: '密码长度至少6位，且必须包含大写字母、小写字母、特殊字符中的两种。',
  },
  passwordLevel2: {
    en: 'The password must be at least 8 characters long and must contain uppercase letters, lowercase letters, and special characters.',
    zh: '密码长度至少8位，且必须包含大写字母、小写字母和特殊字符。',
  },
  mfaCode: { en: 'Enter the 6-digit security code', zh: '请输入6位安全码' },
  loginSuccess: { en: 'Login Successfully!', zh: '登录成功！' },
  registerSuccess: { en: 'Register Successfully!', zh: '注册成功！' },
  registerFailed: { en: 'Register failed!', zh: '注册失败！' },
  resetMailSent: {
    en: 'Submitted successfully! Please click the link in the message to set the password. ',
    zh: '提交成功！请点击邮件中的链接设置密码。',
  },
  passwordChangedRelogin: {
    en: 'Modify password successfully,Please Re Login',
    zh: '修改密码成功，请重新登录',
  },
  verificationCodeError: { en: 'Verification code error', zh: '验证码错误' },
  checkSsoFailed: { en: 'Check SSO Failed', zh: '检查单点登录失败' },
  fileTooLarge10M: { en: 'The maximum supported file size is 10M.', zh: '文件大小最大支持10M。' },
  fileTooLarge1M: { en: 'The maximum supported file size is 1M.', zh: '文件大小最大支持1M。' },
  noData: { en: 'No Data', zh: '暂无数据' },
  noMoreData: { en: 'No More Data', zh: '没有更多数据' },
  copySuccess: { en: 'Copy successfully!', zh: '复制成功！' },
  copyFailed: { en: 'Copy failed', zh: '复制失败' },
  updateSuccess: { en: 'Update successfully!', zh: '更新成功！' },
  deleteSuccess: { en: 'Delete successfully!', zh: '删除成功！' },
  addSuccess: { en: 'Add Successfully!', zh: '添加成功！' },
  changeSuccess: { en: 'Change successfully!', zh: '修改成功！' },
  updateAccountSuccess: { en: 'update account success', zh: '账户更新成功' },
  removeSuccess: { en: 'Remove successfully!', zh: '移除成功！' },
  exitSuccess: { en: 'Exit successfully!', zh: '退出成功！' },
  /** Add member to a workgroup with nobody chosen (spec 2 §5; the spec's wording). */
  memberNotChosen: { en: 'Member is found', zh: '未找到成员' },
  groupNotChosen: { en: 'Group is not found', zh: '未找到分组' },
  /** Modify code: custom chosen without a date (spec 1 §5). */
  selectDate: { en: 'select date', zh: '请选择日期' },
  tmpAuthMinMinutes: {
    en: 'the maximum effective time cannot be less than 1 minutes',
    zh: '最长有效时间不能少于1分钟',
  },
  tmpAuthTooLong: {
    en: 'Creation failed, the effective time has exceeded the maximum effective time of the code set by the administrator',
    zh: '创建失败，有效时间已超过管理员设置的连接码最长有效时间',
  },
} as const;

export type MessageKey = keyof typeof MESSAGES;
