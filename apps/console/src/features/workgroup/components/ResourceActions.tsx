/**
 * A resource row's type icon and actions (spec 1 §2.7). Every action waits for the cluster's
 * agent (agent_status 1). Servers: Connect, Config, Manage Code. Databases: Connect, Manage Code,
 * Check, and Start Application only while SQL approval is on (status 2). Check and Start
 * Application belong to the database-check and application pages, which are not built yet, so
 * they are shown by their rule and stay disabled with a tooltip saying why.
 */
import type { ReactNode } from 'react';
import { Button, Space, Tooltip } from 'antd';
import {
  ApiOutlined,
  AuditOutlined,
  DatabaseOutlined,
  FileSearchOutlined,
  KeyOutlined,
  LinuxOutlined,
  SettingOutlined,
  WindowsOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProjectResource } from '@portcullis/contract';
import { CONFIG_PANEL } from './ConfigPanel';
import { CONNECT_PANEL } from './ConnectPanel';
import { MANAGE_CODE_PANEL } from './ManageCodePanel';

/** The type icon of a resource's OS or database kind. */
export function ResourceIcon({ os }: { os: ProjectResource['os'] }): ReactNode {
  const { t } = useTranslation();
  const label = t(`workgroup.os.${os}`);
  const icon =
    os === 'linux' ? (
      <LinuxOutlined aria-label={label} />
    ) : os === 'win32' ? (
      <WindowsOutlined aria-label={label} />
    ) : (
      <DatabaseOutlined aria-label={label} />
    );
  return (
    <Tooltip title={label}>
      <span className="pc-resource-icon">{icon}</span>
    </Tooltip>
  );
}

/** A disabled button keeps its tooltip only inside a wrapper that receives the pointer. */
function Action({
  label,
  icon,
  disabled,
  reason,
  onClick,
  children,
}: {
  label: string;
  icon: ReactNode;
  disabled: boolean;
  reason?: string | undefined;
  onClick?: () => void;
  children: ReactNode;
}): ReactNode {
  const button = (
    <Button
      type="link"
      size="small"
      icon={icon}
      disabled={disabled}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </Button>
  );
  return disabled && reason ? (
    <Tooltip title={reason}>
      <span className="pc-disabled-action">{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

export interface ResourceActionsProps {
  resource: ProjectResource;
  servers: boolean;
  /** Opens the panel `key` for this resource. */
  onOpen: (resource: ProjectResource, key: string) => void;
}

export function ResourceActions({ resource: r, servers, onOpen }: ResourceActionsProps): ReactNode {
  const { t } = useTranslation();
  const off = r.agent_status !== 1;
  const unavailable = t('workgroup.resources.agentUnavailable');
  const notYet = t('workgroup.resources.notYet');
  return (
    <Space size={0} wrap>
      <Action
        label={t('workgroup.resources.connectLabel', { name: r.name })}
        icon={<ApiOutlined />}
        disabled={off}
        reason={unavailable}
        onClick={() => onOpen(r, CONNECT_PANEL)}
      >
        {t('workgroup.resources.connect')}
      </Action>
      {servers ? (
        <Action
          label={t('workgroup.resources.configLabel', { name: r.name })}
          icon={<SettingOutlined />}
          disabled={off}
          reason={unavailable}
          onClick={() => onOpen(r, CONFIG_PANEL)}
        >
          {t('workgroup.resources.config')}
        </Action>
      ) : null}
      <Action
        label={t('workgroup.resources.manageCodeLabel', { name: r.name })}
        icon={<KeyOutlined />}
        disabled={off}
        reason={unavailable}
        onClick={() => onOpen(r, MANAGE_CODE_PANEL)}
      >
        {t('workgroup.resources.manageCode')}
      </Action>
      {servers ? null : (
        <Action
          label={t('workgroup.resources.checkLabel', { name: r.name })}
          icon={<FileSearchOutlined />}
          disabled
          reason={off ? unavailable : notYet}
        >
          {t('workgroup.resources.check')}
        </Action>
      )}
      {!servers && r.resource.status === 2 ? (
        <Action
          label={t('workgroup.resources.applyLabel', { name: r.name })}
          icon={<AuditOutlined />}
          disabled
          reason={off ? unavailable : notYet}
        >
          {t('workgroup.resources.apply')}
        </Action>
      ) : null}
    </Space>
  );
}
