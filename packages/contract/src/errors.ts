/**
 * The error catalogue (spec 1 §8, spec 2 §8): every code the server may answer with, its HTTP
 * status, and its English and Chinese texts. Texts may carry named placeholders such as
 * `{field}`, filled by {@link formatError}. The console branches on `code`, never on text.
 */
import type { Language } from './constants';

export interface ErrorDefinition {
  status: number;
  en: string;
  zh: string;
}

function def(status: number, en: string, zh: string): ErrorDefinition {
  return { status, en, zh };
}

function notFound(what: string, zhWhat: string): ErrorDefinition {
  return def(404, `The ${what} does not exist`, `${zhWhat}不存在`);
}

export const ERRORS = {
  // General
  /** The request took longer than the client or server allows. */
  RequestTimeout: def(408, 'The request timed out', '请求超时'),
  /** Anything unexpected; the real cause is logged, never shown. */
  UnknowError: def(500, 'Unknown error, please try again later', '未知错误，请稍后重试'),
  /** No session, or the session expired: the console goes to /login. */
  NeedLogin: def(401, 'Need login.', '需要登录。'),
  /** The session's role (or workgroup right) does not allow this call. */
  NeedPrivilege: def(403, 'You do not have permission to do this', '您没有执行此操作的权限'),
  /** A body, query or path value failed its schema; `{field}` names it. */
  InvalidParameter: def(400, 'Invalid parameter: {field}', '参数错误：{field}'),
  ParamError: def(400, 'Parameter error', '参数错误'),
  Timeout: def(504, 'Timed out', '超时'),
  /** Too many calls from one account or address in a short time. */
  TooManyRequests: def(
    429,
    'Too many requests, please try again later',
    '请求过于频繁，请稍后再试',
  ),
  /** A state-changing call without the CSRF token the console sends. */
  CsrfTokenInvalid: def(
    403,
    'The page is out of date; reload it and try again',
    '页面已过期，请刷新后重试',
  ),

  // Sign-in and account
  DomainInUse: def(409, 'The team ID is already in use', '团队ID已被使用'),
  LoginFailed: def(401, 'Login failed', '登录失败'),
  VerifyFailed: def(400, 'Verification failed', '验证失败'),
  /** Wrong team, account or password; deliberately the same for each. */
  PasswordError: def(401, 'Incorrect team ID, account or password', '团队ID、账号或密码错误'),
  /** The new password does not meet the team's strength level. */
  InvalidPassword: def(
    400,
    'The password does not meet the complexity requirements',
    '密码不符合复杂度要求',
  ),
  AccountLocked: def(
    423,
    'Wrong password entered 10 times; try again in 1 hour or reset the password',
    '密码错误已达10次，请1小时后重试或重置密码',
  ),
  AccountDisabled: def(403, 'User disabled', '用户已禁用'),
  /** Saving an admin whitelist that leaves out the administrator's own address would lock them out. */
  WhitelistExcludesSelf: def(
    400,
    'The admin whitelist must include your current address {ip}',
    '管理员白名单必须包含您当前的地址 {ip}',
  ),
  /** Ordinary members sign in through SSO only when the team switched account passwords off. */
  PasswordLoginDisabled: def(
    403,
    'Sign in with single sign-on: account passwords are off for members of this team',
    '请使用单点登录：该团队已关闭成员的账号密码登录',
  ),
  /** The team has no open single sign-on (or no such team: both answer alike). */
  SsoNotOpen: def(400, 'Single sign-on is not open for this team', '该团队未开启单点登录'),
  IPNotInWhiteList: def(403, 'Your IP address is not in the whitelist', '您的IP地址不在白名单中'),
  CaptchaIncorrect: def(400, 'The captcha is incorrect', '验证码错误'),
  VerificationCodeIncorrect: def(400, 'Verification code error', '验证码错误'),
  AlreadySendSMS: def(
    429,
    'A code was sent recently; please wait before asking again',
    '验证码已发送，请稍后再试',
  ),
  ResetLinkExpire: def(
    410,
    'The link has expired or has already been used',
    '链接已过期或已被使用',
  ),
  MfaCodeError: def(400, 'The MFA code is incorrect', 'MFA验证码错误'),
  MfaKeyError: def(
    400,
    'The MFA key is invalid; start the binding again',
    'MFA密钥无效，请重新绑定',
  ),
  NeedMfaLogin: def(401, 'Enter the MFA code to finish logging in', '请输入MFA验证码完成登录'),
  /** The session must change its password before anything else. */
  NeedChangePassword: def(403, 'Please change your password first', '请先修改密码'),
  /** The team requires MFA and this session must bind it before anything else. */
  NeedBindMfa: def(403, 'Please bind MFA first', '请先绑定MFA'),
  /**
   * Binding MFA (or asking for a secret to bind) while it is bound: a new device replaces the
   * bound one only after unbinding with two of its codes, or an administrator's reset.
   */
  MfaAlreadyBound: def(
    409,
    'MFA is already bound; unbind it before binding another device',
    'MFA已绑定，请先解绑再绑定其他设备',
  ),
  AccountPubKeyError: def(400, 'The SSH public key is invalid', 'SSH公钥格式错误'),
  AccountPubKeyExist: def(409, 'The SSH public key already exists', 'SSH公钥已存在'),
  RefreshTokenNotExists: def(401, 'The refresh token does not exist', '刷新令牌不存在'),
  InvalidToken: def(401, 'The token is invalid or has expired', '令牌无效或已过期'),
  LDAPError: def(502, 'The directory service returned an error', '目录服务出错'),
  EmailSendFail: def(502, 'Failed to send the e-mail', '邮件发送失败'),
  SMSSendFail: def(502, 'Failed to send the SMS', '短信发送失败'),

  // Files
  FileEmptyError: def(
    400,
    'The resource list is empty. Please check again!',
    '资源列表为空，请检查！',
  ),
  FileTypeError: def(400, 'Please upload the correct form!', '请上传正确的表格！'),
  FileDataError: def(
    400,
    'Row {row}, column {column}: {reason}',
    '第{row}行第{column}列：{reason}',
  ),
  FileResourceExist: def(409, 'Intranet IP: {ips} exist!', '内网IP：{ips} 已存在！'),
  FileTooLarge: def(413, 'The maximum supported file size is {size}.', '文件大小最大支持{size}。'),

  // Not found
  FileNotFound: notFound('file', '文件'),
  QuickLinkNotFound: notFound('quick link', '快捷链接'),
  ProjectResourceNotFound: notFound('workgroup resource', '工作组资源'),
  LogFilterNotFound: notFound('log filter', '日志过滤规则'),
  ProjectNotFound: notFound('workgroup', '工作组'),
  NetworkNotFound: notFound('cluster', '集群'),
  PlanNotFound: notFound('plan', '套餐'),
  SkuNotFound: notFound('SKU', '商品'),
  BillNotFound: notFound('bill', '账单'),
  NoteNotFound: notFound('note', '备注'),
  CompanyNotFound: notFound('team', '团队'),
  AccountNotFound: notFound('account', '账号'),
  ResourceNotFound: notFound('resource', '资源'),
  TunnelNotFound: notFound('code', '连接码'),
  SubscriptionNotFound: notFound('subscription', '订阅'),
  SqlApplicationNotFound: notFound('SQL application', 'SQL申请'),
  AccountPubKeyNotFound: notFound('SSH key', 'SSH密钥'),
  TunnelConnectionNotFound: notFound('connection', '连接'),
  GroupNotFound: notFound('group', '分组'),
  ProjectGroupNotFound: notFound('workgroup group', '工作组分组'),
  GroupAccountNotFound: notFound('group member', '分组成员'),
  'InvalidInstanceId.NotFound': notFound('cloud instance', '云实例'),
  /** A route that does not exist. */
  RouteNotFound: def(404, 'Not found', '未找到'),

  // Administration
  EndpointRequire: def(
    400,
    'At least one endpoint is required in the pool',
    '资源池至少需要一个端点',
  ),
  BatchCreateFailed: def(400, 'Batch creation failed', '批量创建失败'),
  BatchDeleteFailed: def(400, 'Batch deletion failed', '批量删除失败'),
  AccountExist: def(409, 'The account already exists', '账号已存在'),
  DeleteSelf: def(400, 'You cannot delete yourself', '不能删除自己'),
  /** Disabling one's own account would lock the administrator out. */
  DisableSelf: def(400, 'You cannot disable yourself', '不能禁用自己'),
  /** The role of oneself and of the team's owner cannot be changed (spec 2 §2 Team panels). */
  RoleCannotChange: def(400, 'This account’s role cannot be changed', '该账号的角色不能修改'),
  /** Administrators may not delete or disable other administrators (spec 2 §6). */
  AdminProtected: def(
    403,
    'Another administrator cannot be deleted or disabled',
    '不能删除或禁用其他管理员',
  ),
  RemovingSelf: def(400, 'You cannot remove yourself', '不能移除自己'),
  Locked: def(423, 'Locked', '已锁定'),
  AccountNotAllowDelete: def(
    400,
    'The account is bound to the primary account; change the bound administrator in team settings first',
    '该账号已绑定主账号，请先在团队设置中更换绑定管理员',
  ),
  AccountExceeded: def(400, 'The number of accounts exceeds the plan', '账号数量超过套餐限制'),
  NetworkExceeded: def(400, 'The number of clusters exceeds the plan', '集群数量超过套餐限制'),
  ResourceExceeded: def(400, 'Exceeding the maximum number of resources', '超过最大资源数量'),
  NetworkHasResources: def(400, 'Cluster still has resources', '集群中仍有资源'),
  NetworkHasBeenShared: def(400, 'The cluster has been shared', '集群已被共享'),
  NetworkCannotShare: def(400, 'This cluster cannot be shared', '该集群不能共享'),
  NetworkAlreadyShared: def(
    409,
    'The cluster is already shared with this team',
    '集群已共享给该团队',
  ),
  NetworkUnavailable: def(400, 'The cluster is unavailable', '集群不可用'),
  NetmaskTooSmall: def(400, 'e.g. {ip}/24, and only supports 24-32', '例如 {ip}/24，仅支持24-32'),
  SharedNetworkCannotChangeLogFilter: def(
    400,
    'A shared cluster’s log filters cannot be changed',
    '共享集群不能修改日志过滤规则',
  ),
  AgentAlreadyInstall: def(409, 'The agent is already installed', '代理已安装'),
  AgentError: def(503, 'Agent is not online', '代理不在线'),
  /** The cluster's gateway lacks what this step needs (it predates the feature); update it. */
  GatewayUpdateRequired: def(
    409,
    'The cluster’s gateway is too old for this; update the gateway',
    '该集群的网关版本过旧，无法执行此操作，请更新网关',
  ),
  ProjectNameExist: def(409, 'The workgroup name already exists', '工作组名称已存在'),
  NetworkNameExist: def(409, 'The cluster name already exists', '集群名称已存在'),
  GroupNameExist: def(409, 'The group name already exists', '分组名称已存在'),
  ResourceNameExist: def(409, 'The resource name already exists', '资源名称已存在'),
  ResourceExist: def(409, 'Intranet IP: {ips} exist!', '内网IP：{ips} 已存在！'),
  ProjectExist: def(409, 'The workgroup already exists', '工作组已存在'),
  ProjectAccountExist: def(409, 'The member is already in the workgroup', '成员已在工作组中'),
  /** Deleting a cluster's default workgroup (spec 2 §6: it cannot be deleted). */
  DefaultProjectCannotDelete: def(
    400,
    'The default workgroup of a cluster cannot be deleted',
    '集群的默认工作组不能删除',
  ),
  /** Adding or removing resources of a default workgroup: it holds exactly its cluster's. */
  DefaultProjectResourcesFixed: def(
    400,
    'The default workgroup holds its cluster’s resources; they cannot be added or removed',
    '默认工作组包含其集群的全部资源，不能添加或移除',
  ),
  GroupExist: def(409, 'The group already exists', '分组已存在'),
  ProjectGroupExist: def(409, 'The group is already in the workgroup', '分组已在工作组中'),
  GroupAccountExist: def(409, 'The member is already in the group', '成员已在分组中'),
  MustBeLinuxServer: def(400, 'The resource must be a Linux server', '资源必须是Linux服务器'),
  /** A code used on a proxy of another kind (a MySQL code on the PostgreSQL port, …). */
  WrongResourceKind: def(
    400,
    'This code is for another kind of resource; use the port and client its Connect panel shows',
    '此连接码属于另一类资源，请使用其连接面板所示的端口和客户端',
  ),
  /** The client asked for a database the resource does not offer. */
  DatabaseNotOffered: def(
    403,
    'The database is not one this resource offers',
    '该数据库不在此资源提供的数据库之内',
  ),
  /**
   * A temporary authorization's one-time password is asked in cleartext, so a database proxy
   * asks it only over TLS; `{how}` names the client's option (MySQL: `--ssl`).
   */
  TlsRequired: def(
    403,
    'A temporary authorization needs TLS for its password; connect with TLS ({how})',
    '临时授权的密码只能经 TLS 发送，请使用 TLS 连接（{how}）',
  ),
  /**
   * The target sshd showed a host key other than the one pinned for the resource at its first
   * session: the gateway stopped before sending any credential.
   */
  HostKeyChanged: def(
    409,
    'The server’s host key is not the one Portcullis saw there before; nothing was sent to it. Ask an administrator to check the server and, if the change is expected, forget its host key',
    '服务器的主机密钥与 Portcullis 先前记录的不同，未向其发送任何凭据。请管理员核实该服务器；如属预期变更，请清除其主机密钥',
  ),
  SetAutologinFailed: def(400, 'Failed to set up key login', '设置密钥登录失败'),
  HostsTypeError: def(400, 'Unsupported hosts export type', '不支持的主机导出类型'),
  InvalidResource: def(400, 'The resource is invalid', '资源无效'),
  IncorrectInstanceStatus: def(
    400,
    'The instance is not in a state that allows this',
    '实例状态不允许此操作',
  ),
  AkError: def(400, 'Confirm the AK and SK are correct', '请确认AK和SK是否正确'),
  PermissionError: def(
    403,
    'Grant read-only cloud access to the key',
    '请为该密钥授予云资源只读权限',
  ),

  // Codes, sessions and governance
  TunnelIsOnline: def(409, 'The code is in use by an online session', '连接码正在被在线会话使用'),
  TunnelExpire: def(410, 'The code has expired', '连接码已过期'),
  /** The member already has a (non-temporary) code for this resource (spec 1 §5). */
  TunnelExist: def(409, 'You already have a code for this resource', '您已有该资源的连接码'),
  /** A temporary authorization can be deleted but not changed (spec 1 §2.7). */
  TunnelCannotChange: def(
    400,
    'A temporary authorization cannot be changed, only deleted',
    '临时授权不能修改，只能删除',
  ),
  ExpireTimeTooBig: def(
    400,
    'The expiry exceeds the maximum allowed (at most 1 year)',
    '有效期超过最大允许值（最长1年）',
  ),
  TimeNotValid: def(400, 'Need future time', '需要未来的时间'),
  TooManyShadows: def(400, 'Cannot create more than 5 shadows', '最多只能创建5个影子会话'),
  ConnectionIDNotFound: def(404, 'The connection does not exist', '连接不存在'),
  // Why a session ended, told to its client (the web terminal's `closed` frame carries these
  // codes; the SSH and database proxies print the English text). Not HTTP answers: the status
  // is only the catalogue's form.
  /** The shell or the target's connection ended on its own. */
  SessionEnded: def(410, 'The session ended', '会话已结束'),
  /** The server ended the session; the cut's reason (another code below) says why. */
  SessionCut: def(410, 'The session was ended by the server', '会话已被服务器结束'),
  /** A cut's reason: an administrator or the member disconnected it in the console. */
  SessionCutFromConsole: def(410, 'Disconnected from the console', '已从控制台断开连接'),
  /** A cut's reason: the code was deleted, or its member no longer reaches the resource. */
  AccessRevoked: def(
    403,
    'Access was revoked: the code was deleted or no longer reaches the resource',
    '访问权限已被撤销：连接码已删除或已无法访问该资源',
  ),
  /** A cut's reason: the gateway lost its control channel, so it ends what it cannot govern. */
  ControlChannelLost: def(
    503,
    'The gateway lost its connection to the Portcullis server',
    '网关与 Portcullis 服务器的连接已断开',
  ),
  /** A cut's reason: the database's security rules changed and the administrator applied them now. */
  RulesChanged: def(
    410,
    'The database’s security rules changed: connect again to work under them',
    '数据库的安全规则已更改：请重新连接以按新规则操作',
  ),
  /** A cut's reason: the cluster's security mode changed and the administrator applied it now. */
  SecurityModeChanged: def(
    410,
    'The cluster’s security mode changed: connect again to work under it',
    '集群的安全模式已更改：请重新连接以按新设置操作',
  ),
  /** The session's recording could not be written: a recorded session does not go on unrecorded. */
  RecordingFailed: def(500, 'The recording could not be written', '录像无法写入'),
  TaskExpired: def(410, 'The task has expired', '任务已过期'),
  CommandExist: def(409, 'The command already exists', '命令已存在'),
  NetworkSafeModeNotOpen: def(400, 'cluster safe_mode is not open', '集群未开启安全模式'),
  ApplicationExist: def(409, 'An application is already pending', '已有待审批的申请'),
  NeedApplicationSafeMode: def(400, 'Apply for the non-security mode first', '请先申请非安全模式'),
  OSSFileArchived: def(409, 'The recording is archived; restore it first', '录像已归档，请先解冻'),
  OSSFileRestoring: def(409, 'The recording is being restored', '录像正在解冻中'),

  // Plans and billing
  SubscribeForbidden: def(403, 'Subscribing is not allowed', '不允许订阅'),
  UpgradeSubscriptionFailed: def(400, 'Failed to upgrade the subscription', '升级订阅失败'),
  CannotUpgradeSubscription: def(400, 'The subscription cannot be upgraded', '该订阅无法升级'),
  SubscribeOvertime: def(400, 'The maximum subscription length is 12', '订阅时长最长为12'),
  SubscriptionFailed: def(400, 'Subscription failed', '订阅失败'),
  NeedRenewOrUpdate: def(402, 'Please renew or upgrade the plan', '请续费或升级套餐'),
  InvoiceTitleNeedCheck: def(400, 'The invoice title needs checking', '发票抬头需要审核'),
  NeedInvoiceTitleAndAddress: def(
    400,
    'An invoice title and address are required',
    '需要发票抬头和地址',
  ),
  NeedInvoiceSubscriptions: def(400, 'Choose the subscriptions to invoice', '请选择需要开票的订阅'),
  SalesSystemError: def(502, 'The sales system returned an error', '销售系统异常'),
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERRORS, code);
}

export type ErrorParams = Record<string, string | number>;

/** Fills `{name}` placeholders; a placeholder without a value is left as written. */
export function fillPlaceholders(text: string, params: ErrorParams = {}): string {
  return text.replace(/\{([A-Za-z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function formatError(code: ErrorCode, language: Language, params?: ErrorParams): string {
  const entry = ERRORS[code];
  return fillPlaceholders(language === 'zh_CN' ? entry.zh : entry.en, params);
}

export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}
