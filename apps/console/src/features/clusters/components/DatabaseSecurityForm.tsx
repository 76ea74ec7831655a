import { useState, type ReactNode } from 'react';
import { App, Button, Divider, Input, Select, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SQL_OPS } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import {
  useDatabaseSecurityQuery,
  useMembersQuery,
  useUpdateDatabaseSecurityMutation,
  type DatabaseSecurity,
} from '../api';
import { OpenSessionsNotice } from './OpenSessionsNotice';

type SqlOp = (typeof SQL_OPS)[number];
interface SqlRule {
  op: SqlOp;
  table?: string | undefined;
}

function ruleKey(rule: SqlRule): string {
  return `${rule.op}\u0000${(rule.table ?? '').toLowerCase()}`;
}

/**
 * A database's security settings (spec 2 §3, §5): SQL approval on or off with its approvers,
 * block rules, alarm on or off with its rules and notifiers. The same op and table cannot be
 * added twice; Save is disabled while approval has no approver or alarm has no notifier or no
 * rule. Sessions read the rules when they start: with sessions open, the form says so and
 * offers to disconnect them on save, so that the new rules apply at once.
 */
export function DatabaseSecurityForm({
  resourceId,
  panelKey,
}: {
  resourceId: number;
  panelKey: string;
}): ReactNode {
  const security = useDatabaseSecurityQuery(resourceId);
  if (!security.data) return <Spin />;
  return <SecurityEditor resourceId={resourceId} panelKey={panelKey} initial={security.data} />;
}

function RuleEditor({
  label,
  rules,
  disabled,
  onChange,
}: {
  label: string;
  rules: SqlRule[];
  disabled: boolean;
  onChange: (rules: SqlRule[]) => void;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [op, setOp] = useState<SqlOp | undefined>(undefined);
  const [table, setTable] = useState('');
  const onAdd = (): void => {
    if (!op) return;
    const rule: SqlRule = { op, ...(table.trim() ? { table: table.trim() } : {}) };
    if (rules.some((r) => ruleKey(r) === ruleKey(rule))) {
      void message.warning(t('clusters.security.ruleExists'));
      return;
    }
    onChange([...rules, rule]);
    setTable('');
  };
  return (
    <div>
      <Typography.Text strong>{label}</Typography.Text>
      <Space.Compact block style={{ margin: '8px 0' }}>
        <Select<SqlOp>
          aria-label={t('clusters.security.op')}
          placeholder={t('clusters.security.op')}
          disabled={disabled}
          value={op}
          onChange={setOp}
          style={{ width: 160 }}
          options={SQL_OPS.map((value) => ({ value, label: value.toUpperCase() }))}
        />
        <Input
          aria-label={t('clusters.security.table')}
          placeholder={t('clusters.security.tableOptional')}
          disabled={disabled}
          value={table}
          onChange={(e) => setTable(e.target.value)}
        />
        <Button disabled={disabled || !op} onClick={onAdd}>
          {t('common.action.add')}
        </Button>
      </Space.Compact>
      <Space wrap>
        {rules.map((rule) => (
          <Tag
            key={ruleKey(rule)}
            closable={!disabled}
            onClose={() => onChange(rules.filter((r) => ruleKey(r) !== ruleKey(rule)))}
          >
            {rule.op.toUpperCase()}
            {rule.table ? ` · ${rule.table}` : ` · ${t('clusters.security.allTables')}`}
          </Tag>
        ))}
      </Space>
    </div>
  );
}

function SecurityEditor({
  resourceId,
  panelKey,
  initial,
}: {
  resourceId: number;
  panelKey: string;
  initial: DatabaseSecurity;
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const members = useMembersQuery(true);
  const mutation = useUpdateDatabaseSecurityMutation(resourceId);
  const [approval, setApproval] = useState(initial.status === 2);
  const [alarm, setAlarm] = useState(initial.notice_status === 1);
  const [block, setBlock] = useState<SqlRule[]>(initial.block_pattern);
  const [notice, setNotice] = useState<SqlRule[]>(initial.notice_pattern);
  const [approvers, setApprovers] = useState(initial.approve_accounts.map((a) => a.id));
  const [notifiers, setNotifiers] = useState(initial.notice_accounts.map((a) => a.id));
  // Rules are read when a session starts: the open ones keep theirs unless this is ticked.
  const [cutSessions, setCutSessions] = useState(false);

  const options = (members.data ?? []).map((m) => ({
    value: m.id,
    label: `${m.name} (${m.account})`,
  }));
  const blocked =
    (approval && approvers.length === 0) ||
    (alarm && (notifiers.length === 0 || notice.length === 0));

  const onSave = (): void =>
    mutation.mutate(
      {
        status: approval ? 2 : 1,
        block_pattern: block,
        notice_pattern: notice,
        notice_status: alarm ? 1 : 0,
        approve_accounts: [...new Set(approvers)],
        notice_accounts: [...new Set(notifiers)],
        cut_sessions: cutSessions,
      },
      {
        onSuccess: () => {
          void message.success(t('messages.updateSuccess'));
          panel.close(panelKey);
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );

  return (
    <div>
      <Space>
        <Switch
          checked={approval}
          onChange={setApproval}
          aria-label={t('clusters.security.approval')}
        />
        <span>{t('clusters.security.approval')}</span>
      </Space>
      <Select<number[]>
        mode="multiple"
        aria-label={t('clusters.security.approvers')}
        placeholder={t('clusters.security.approvers')}
        disabled={!approval}
        value={approvers}
        onChange={setApprovers}
        options={options}
        optionFilterProp="label"
        style={{ width: '100%', marginTop: 8 }}
      />
      <Divider />
      <RuleEditor
        label={t('clusters.security.blockRules')}
        rules={block}
        disabled={false}
        onChange={setBlock}
      />
      <Divider />
      <Space>
        <Switch checked={alarm} onChange={setAlarm} aria-label={t('clusters.security.alarm')} />
        <span>{t('clusters.security.alarm')}</span>
      </Space>
      <div style={{ marginTop: 8 }}>
        <RuleEditor
          label={t('clusters.security.alarmRules')}
          rules={notice}
          disabled={!alarm}
          onChange={setNotice}
        />
      </div>
      <Select<number[]>
        mode="multiple"
        aria-label={t('clusters.security.notifiers')}
        placeholder={t('clusters.security.notifiers')}
        disabled={!alarm}
        value={notifiers}
        onChange={setNotifiers}
        options={options}
        optionFilterProp="label"
        style={{ width: '100%', marginTop: 8 }}
      />
      <Divider />
      <OpenSessionsNotice
        open={initial.online}
        texts={{ online: 'clusters.security.online', cutOnSave: 'clusters.security.cutOnSave' }}
        cut={cutSessions}
        onCutChange={setCutSessions}
      />
      <Space>
        <Button onClick={() => panel.close(panelKey)}>{t('common.action.cancel')}</Button>
        <Button type="primary" disabled={blocked} loading={mutation.isPending} onClick={onSave}>
          {t('common.action.save')}
        </Button>
      </Space>
    </div>
  );
}
