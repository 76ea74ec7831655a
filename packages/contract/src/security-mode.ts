/**
 * Security mode for terminal sessions (spec 2 §2 cluster safe mode, §3 intercept and notice
 * commands and log filters, §4 safe mode) and the file-transfer log (spec 1 §3 action log entry: op and
 * filename). The gateway gets a session's command policy with session_started, reports blocks
 * and alarms (command_alarm) and file transfers (file_transfer) on the control channel; the
 * texts a member or a notified account reads are here in English and Chinese.
 */
import { z } from 'zod';

/** The longest command line an alarm carries (longer lines are cut, with an ellipsis). */
export const ALARM_COMMAND_MAX = 2000;
/** The longest file name a file-log entry carries. */
export const FILE_NAME_MAX = 4096;

/** What the gateway enforces for one session: the cluster's intercept and notice commands. */
export const CommandPolicySchema = z.object({
  intercept: z.array(z.string().max(255)).max(500),
  notice: z.array(z.string().max(255)).max(500),
});
export type CommandPolicy = z.infer<typeof CommandPolicySchema>;

/** The most log filter conditions a session carries (the cluster's oldest first). */
export const SESSION_LOG_FILTERS_MAX = 1000;

/**
 * A cluster's log filters (spec 2 §3, operator 'contains') as a session carries them: the
 * conditions, matched case-insensitively as substrings of each stored line. They change what
 * is stored (the recording, alarm commands, file-log names), never what the member sees.
 */
export const LogFilterConditionsSchema = z.array(z.string().max(255)).max(SESSION_LOG_FILTERS_MAX);

/** What a stored line, alarm command or file name becomes when a log filter matches it. */
export const LOG_FILTER_HIDDEN = {
  line: '[line hidden by a log filter]',
  command: '[command hidden by a log filter]',
  file: '[file name hidden by a log filter]',
} as const;

/** intercept: the line was not run; notice: it ran and raised an alarm. */
export const ALARM_ACTIONS = ['intercept', 'notice'] as const;
export type AlarmAction = (typeof ALARM_ACTIONS)[number];

export const FILE_OPS = ['download', 'upload'] as const;
export type FileOp = (typeof FILE_OPS)[number];

/** How a file moved: the sftp subsystem, or classic scp (an exec of `scp -t`/`scp -f`). */
export const FILE_WAYS = ['sftp', 'scp'] as const;
export type FileWay = (typeof FILE_WAYS)[number];

/** Texts of security mode, each in both languages. `{…}` are placeholders. */
export const SECURITY_MODE_TEXT = {
  /** Written to the member's terminal in place of running a blocked line. */
  blocked: {
    en: 'Portcullis security mode blocked this command: "{command}" is an intercept command of this cluster ({rule}).',
    zh: 'Portcullis 安全模式已拦截此命令：“{command}”属于本集群的拦截命令（{rule}）。',
  },
  alarmSubject: {
    en: 'Portcullis security alarm: {account} on {resource}',
    zh: 'Portcullis 安全告警：{account} 在 {resource}',
  },
  alarmBody: {
    en: 'Security mode {action} a command.\nTime: {time}\nAccount: {account}\nClient IP: {ip}\nResource: {resource}\nWorkgroup: {workgroup}\nWay: {way}\nCommand: {command}\nRule: {rule}',
    zh: '安全模式{action}了一条命令。\n时间：{time}\n账号：{account}\n客户端 IP：{ip}\n资源：{resource}\n工作组：{workgroup}\n方式：{way}\n命令：{command}\n规则：{rule}',
  },
  intercepted: { en: 'blocked', zh: '拦截' },
  noticed: { en: 'raised an alarm on', zh: '告警' },
} as const;

/** Fills `{name}` placeholders; unknown names stay as written. */
export function fillText(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** SQL statements a database rule can name (spec 2 §3 block_pattern / notice_pattern). */
export const SQL_OPS = [
  'select',
  'insert',
  'update',
  'delete',
  'create',
  'alter',
  'drop',
  'truncate',
  'grant',
  'revoke',
] as const;

export const SqlRuleSchema = z.object({
  op: z.enum(SQL_OPS),
  /** Absent: the rule applies to every table. */
  table: z.string().trim().min(1).max(128).optional(),
});
export type SqlOp = (typeof SQL_OPS)[number];
export type SqlRule = z.infer<typeof SqlRuleSchema>;

/**
 * What a database session enforces (spec 2 §3, §5), sent with session_started for mysql and
 * postgresql sessions: statements matching a block rule are refused; with the alarm switch on,
 * statements matching a notice rule pass and raise an alarm; in approval mode (status 2)
 * statements that change data or schema are refused (the member submits a SQL application).
 */
export const SqlPolicySchema = z.object({
  block: z.array(SqlRuleSchema).max(200),
  /** Empty when the resource's alarm switch (notice_status) is off. */
  notice: z.array(SqlRuleSchema).max(200),
  approval: z.boolean(),
});
export type SqlPolicy = z.infer<typeof SqlPolicySchema>;
