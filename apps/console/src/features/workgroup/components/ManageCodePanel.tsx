/**
 * Manage Code (spec 1 §2.7): the codes of one resource the member may manage (their own; every
 * member's as the workgroup's administrator): member, code, allowed IPs, start and end time, with
 * Change (not for a temporary authorization) and Delete, which disables the code after a
 * confirmation. An expired code is highlighted. The footer's Create and Temporary Authorize
 * (servers only) wait for the cluster's agent; Create also waits until the member has no code
 * of their own for the resource (one per member and resource, spec 1 §5).
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Space, Tooltip } from 'antd';
import { PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Code, ProjectResource, Workgroup } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCurrentAccountQuery } from '../../../shared/session/session';
import { useCodesQuery, useUpdateCodeMutation, type TmpShareReply } from '../api';
import { hasOwnCode } from '../rules';
import { CreateCodeDialog, ModifyCodeDialog } from './CodeDialogs';
import { CodeTable } from './CodeTable';
import { TmpAuthDialog, TmpAuthResultDialog } from './TmpAuthDialogs';

export const MANAGE_CODE_PANEL = 'panel/workgroup/codes';

export interface ManageCodePanelProps {
  resource: ProjectResource | null;
  workgroup: Workgroup;
}

type Dialog = { kind: 'create' } | { kind: 'modify'; code: Code } | { kind: 'tmp' } | null;

export function ManageCodePanel({ resource, workgroup }: ManageCodePanelProps): ReactNode {
  const { t } = useTranslation();
  const { activeKey } = usePanel();
  const open = activeKey === MANAGE_CODE_PANEL && resource !== null;
  const { message } = App.useApp();
  const errorText = useErrorText();
  const resourceId = resource?.id ?? 0;
  const [paged, setPaged] = useState({ resourceId, page: 1 });
  // Another resource's codes start on their first page.
  const page = paged.resourceId === resourceId ? paged.page : 1;
  const setPage = (next: number): void => setPaged({ resourceId, page: next });
  const [dialog, setDialog] = useState<Dialog>(null);
  // The one-time credentials live here only while their dialog is open.
  const [tmpResult, setTmpResult] = useState<TmpShareReply | null>(null);
  const me = useCurrentAccountQuery().data?.id;
  const codes = useCodesQuery(resourceId, page, open);
  const update = useUpdateCodeMutation(workgroup.id);
  const rows = codes.data?.objects ?? [];
  const total = codes.data?.num_results ?? 0;
  const available = resource?.agent_status === 1;
  const servers = resource?.type === 'ecs';
  const ownCode = hasOwnCode(rows, me);

  const onDelete = (code: Code): void =>
    update.mutate(
      { id: code.id, body: { status: 'disable' } },
      {
        onSuccess: () => void message.success(t('messages.deleteSuccess')),
        onError: (error) => void message.error(errorText(error)),
      },
    );

  const createBlocked = !available
    ? t('workgroup.resources.agentUnavailable')
    : ownCode
      ? t('workgroup.codes.haveCode')
      : undefined;
  const tmpBlocked = available ? undefined : t('workgroup.resources.agentUnavailable');

  const footerButton = (
    label: string,
    icon: ReactNode,
    blocked: string | undefined,
    onClick: () => void,
    primary = false,
  ): ReactNode => {
    const button = (
      <Button
        type={primary ? 'primary' : 'default'}
        icon={icon}
        disabled={blocked !== undefined}
        onClick={onClick}
      >
        {label}
      </Button>
    );
    return blocked ? (
      <Tooltip title={blocked}>
        <span className="pc-disabled-action">{button}</span>
      </Tooltip>
    ) : (
      button
    );
  };

  const footer = (
    <Space wrap>
      {footerButton(
        t('workgroup.codes.create'),
        <PlusOutlined />,
        createBlocked,
        () => setDialog({ kind: 'create' }),
        true,
      )}
      {servers
        ? footerButton(t('workgroup.codes.tmpAuthorize'), <SafetyOutlined />, tmpBlocked, () =>
            setDialog({ kind: 'tmp' }),
          )
        : null}
    </Space>
  );

  return (
    <RightPanel
      panelKey={MANAGE_CODE_PANEL}
      width={1000}
      title={resource ? t('workgroup.codes.title', { name: resource.name }) : ''}
      footer={resource ? footer : null}
      onAfterClose={() => {
        setDialog(null);
        setTmpResult(null);
      }}
    >
      {resource ? (
        <>
          <CodeTable
            codes={rows}
            total={total}
            page={page}
            loading={codes.isPending}
            onPage={setPage}
            onChange={(code) => setDialog({ kind: 'modify', code })}
            onDelete={onDelete}
          />
          <CreateCodeDialog
            open={dialog?.kind === 'create'}
            resource={resource}
            projectId={workgroup.id}
            onClose={() => setDialog(null)}
          />
          <ModifyCodeDialog
            code={dialog?.kind === 'modify' ? dialog.code : null}
            resource={resource}
            projectId={workgroup.id}
            onClose={() => setDialog(null)}
          />
          {servers ? (
            <TmpAuthDialog
              open={dialog?.kind === 'tmp'}
              resource={resource}
              projectId={workgroup.id}
              onClose={() => setDialog(null)}
              onCreated={(reply) => {
                setDialog(null);
                setTmpResult(reply);
              }}
            />
          ) : null}
        </>
      ) : null}
      <TmpAuthResultDialog result={tmpResult} onClosed={() => setTmpResult(null)} />
    </RightPanel>
  );
}
