import { useState, type ReactNode } from 'react';
import { App, Button, Divider, Input, Select, Space, Spin, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import {
  useInterceptsQuery,
  useMembersQuery,
  useSafeModeQuery,
  useSaveSafeModeMutation,
  type InterceptCommand,
  type SafeMode,
} from '../api';
import { splitCommands } from '../rules';
import { OpenSessionsNotice } from './OpenSessionsNotice';

export const SAFE_MODE_PANEL = 'panel/clusters/safe-mode';

/**
 * Safe mode for the cluster's servers (spec 2 §4): security on or off with intercept commands
 * and approvers, alarm on or off with notice commands and notifiers. Commands are typed
 * comma-separated and duplicates are skipped; turning a switch off disables its inputs. Sessions
 * read the lists when they start: with terminals open in the cluster, the form says so and
 * offers to disconnect them on save.
 */
export function SafeModePanel({ clusterId }: { clusterId: number }): ReactNode {
  const { t } = useTranslation();
  const panel = usePanel();
  const open = panel.activeKey === SAFE_MODE_PANEL;
  const safeMode = useSafeModeQuery(clusterId, open);
  const intercepts = useInterceptsQuery(clusterId, open);
  return (
    <RightPanel panelKey={SAFE_MODE_PANEL} title={t('clusters.safeMode.title')} width={560}>
      {safeMode.data && intercepts.data ? (
        // Mounted afresh each time the panel opens (the panel destroys its content when hidden);
        // a save has refreshed both lists before the panel closes.
        <SafeModeForm clusterId={clusterId} initial={safeMode.data} commands={intercepts.data} />
      ) : (
        <Spin />
      )}
    </RightPanel>
  );
}

function SafeModeForm({
  clusterId,
  initial,
  commands,
}: {
  clusterId: number;
  initial: SafeMode;
  commands: InterceptCommand[];
}): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const members = useMembersQuery(true);
  const save = useSaveSafeModeMutation(clusterId, commands);
  const [safe, setSafe] = useState(initial.safe_mode);
  const [approval, setApproval] = useState(initial.safe_mode_approver);
  const [alarm, setAlarm] = useState(initial.safe_mode_notice);
  const [approvers, setApprovers] = useState(initial.approver_accounts.map((a) => a.id));
  const [notifiers, setNotifiers] = useState(initial.notice_accounts.map((a) => a.id));
  const [cutTerminals, setCutTerminals] = useState(false);
  const joined = (kind: InterceptCommand['kind']): string =>
    commands
      .filter((c) => c.kind === kind)
      .map((c) => c.command)
      .join(',');
  const [intercept, setIntercept] = useState(joined('intercept'));
  const [notice, setNotice] = useState(joined('notice'));
  const options = (members.data ?? []).map((m) => ({
    value: m.id,
    label: `${m.name} (${m.account})`,
  }));
  const blocked = (safe && approval && approvers.length === 0) || (alarm && notifiers.length === 0);

  const onSave = (): void =>
    save.mutate(
      {
        settings: {
          safe_mode: safe,
          safe_mode_approver: safe && approval,
          safe_mode_notice: alarm,
          approver_accounts: [...new Set(approvers)],
          notice_accounts: [...new Set(notifiers)],
          cut_sessions: cutTerminals,
        },
        intercept: splitCommands(intercept),
        notice: splitCommands(notice),
      },
      {
        onSuccess: () => {
          void message.success(t('messages.updateSuccess'));
          panel.close(SAFE_MODE_PANEL);
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );

  return (
    <div>
      <Space>
        <Switch checked={safe} onChange={setSafe} aria-label={t('clusters.safeMode.security')} />
        <Typography.Text strong>{t('clusters.safeMode.security')}</Typography.Text>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('clusters.safeMode.securityHint')}
      </Typography.Paragraph>
      <Input.TextArea
        rows={3}
        aria-label={t('clusters.safeMode.intercepts')}
        placeholder={t('clusters.safeMode.commandsPlaceholder')}
        disabled={!safe}
        value={intercept}
        onChange={(e) => setIntercept(e.target.value)}
      />
      <Space style={{ marginTop: 12 }}>
        <Switch
          checked={safe && approval}
          disabled={!safe}
          onChange={setApproval}
          aria-label={t('clusters.safeMode.approval')}
        />
        <span>{t('clusters.safeMode.approval')}</span>
      </Space>
      <Select<number[]>
        mode="multiple"
        aria-label={t('clusters.safeMode.approvers')}
        placeholder={t('clusters.safeMode.approvers')}
        disabled={!safe || !approval}
        value={approvers}
        onChange={setApprovers}
        options={options}
        optionFilterProp="label"
        style={{ width: '100%', marginTop: 8 }}
      />
      <Divider />
      <Space>
        <Switch checked={alarm} onChange={setAlarm} aria-label={t('clusters.safeMode.alarm')} />
        <Typography.Text strong>{t('clusters.safeMode.alarm')}</Typography.Text>
      </Space>
      <Input.TextArea
        rows={3}
        aria-label={t('clusters.safeMode.notices')}
        placeholder={t('clusters.safeMode.commandsPlaceholder')}
        disabled={!alarm}
        value={notice}
        onChange={(e) => setNotice(e.target.value)}
        style={{ marginTop: 8 }}
      />
      <Select<number[]>
        mode="multiple"
        aria-label={t('clusters.safeMode.notifiers')}
        placeholder={t('clusters.safeMode.notifiers')}
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
        texts={{ online: 'clusters.safeMode.online', cutOnSave: 'clusters.safeMode.cutOnSave' }}
        cut={cutTerminals}
        onCutChange={setCutTerminals}
      />
      <Space>
        <Button onClick={() => panel.close(SAFE_MODE_PANEL)}>{t('common.action.cancel')}</Button>
        <Button type="primary" disabled={blocked} loading={save.isPending} onClick={onSave}>
          {t('common.action.save')}
        </Button>
      </Space>
    </div>
  );
}
