import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  App,
  Button,
  Form,
  Input,
  InputNumber,
  Radio,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { INSTANCE_OS } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import {
  useCreateResourcesMutation,
  useScanStatusQuery,
  useStartScanMutation,
  type ScanStatus,
} from '../api';
import { cidrRules, OS_DEFAULTS, portRules, splitUsernames, usernamesRules } from '../rules';

export const SCAN_IMPORT_PANEL = 'panel/clusters/scan-import';

type InstanceOs = (typeof INSTANCE_OS)[number];
type ScanRow = ScanStatus['objects'][number];

export interface ScanValues {
  cidr: string;
  os: InstanceOs;
  port: number;
  username: string;
}

/**
 * Scan Import (spec 2 §4): the gateway scans a range (prefix 24-32) for an open port; the result
 * is polled every 3 s; toggling hide-duplicate-IP restarts the scan; the chosen rows are added
 * as servers named by their address.
 */
export function ScanImportPanel({ clusterId }: { clusterId: number }): ReactNode {
  const { t } = useTranslation();
  const [resetKey, setResetKey] = useState(0);
  return (
    <RightPanel
      panelKey={SCAN_IMPORT_PANEL}
      title={t('clusters.scan.title')}
      width={620}
      onAfterClose={() => setResetKey((k) => k + 1)}
    >
      <ScanImport key={resetKey} clusterId={clusterId} />
    </RightPanel>
  );
}

function ScanImport({ clusterId }: { clusterId: number }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const [form] = Form.useForm<ScanValues>();
  const [values, setValues] = useState<ScanValues | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [hide, setHide] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const start = useStartScanMutation();
  const status = useScanStatusQuery(taskId, hide);
  const create = useCreateResourcesMutation(clusterId);
  const reported = useRef<string | null>(null);

  const run = (scan: ScanValues): void => {
    setValues(scan);
    setChosen([]);
    reported.current = null;
    start.mutate(
      {
        network_id: clusterId,
        cidr: scan.cidr.trim(),
        os: scan.os,
        port: scan.port,
        username: scan.username.trim(),
      },
      {
        onSuccess: ({ task_id }) => setTaskId(task_id),
        onError: (error) => void message.warning(errorText(error)),
      },
    );
  };

  const done = status.data && status.data.status !== 'pending';
  useEffect(() => {
    if (!taskId || reported.current === taskId) return;
    if (status.isError) {
      reported.current = taskId;
      void message.warning(errorText(status.error));
    } else if (status.data?.status === 'failed') {
      reported.current = taskId;
      void message.warning(t('clusters.scan.failed'));
    } else if (status.data?.status === 'done') {
      reported.current = taskId;
      if (status.data.objects.length === 0) void message.warning(t('clusters.scan.empty'));
      else void message.success(t('clusters.scan.success'));
    }
  }, [taskId, status.data, status.isError, status.error, message, errorText, t]);

  const onImport = (): void => {
    if (!values) return;
    const rows = (status.data?.objects ?? []).filter((r) => chosen.includes(r.ip));
    const login_users = splitUsernames(values.username).map((username) => ({
      username,
      auth_type: 0 as const,
    }));
    create.mutate(
      rows.map((r) => ({
        network_id: clusterId,
        name: r.ip,
        ip_address: r.ip,
        os: values.os,
        port: r.port,
        login_users,
      })),
      {
        onSuccess: () => {
          void message.success(t('clusters.import.success'));
          panel.close(SCAN_IMPORT_PANEL);
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  const scanning = start.isPending || (taskId !== null && !done && !status.isError);

  return (
    <div>
      <Form<ScanValues>
        form={form}
        layout="vertical"
        initialValues={{ cidr: '', os: 'linux', port: 22, username: 'root' }}
        onFinish={run}
        disabled={scanning}
      >
        <Form.Item name="cidr" label={t('clusters.scan.cidr')} rules={cidrRules(t)}>
          <Input placeholder="192.168.1.0/24" autoComplete="off" />
        </Form.Item>
        <Form.Item name="os" label={t('clusters.scan.os')} rules={[{ required: true }]}>
          <Radio.Group
            onChange={(e) => {
              const os = e.target.value as InstanceOs;
              form.setFieldsValue({
                port: OS_DEFAULTS[os].port,
                username: OS_DEFAULTS[os].username ?? '',
              });
            }}
            options={INSTANCE_OS.map((os) => ({ value: os, label: t(`clusters.os.${os}`) }))}
          />
        </Form.Item>
        <Space align="start" wrap>
          <Form.Item name="port" label={t('clusters.scan.port')} rules={portRules(t)}>
            <InputNumber min={0} max={65535} precision={0} />
          </Form.Item>
          <Form.Item
            name="username"
            label={t('clusters.scan.username')}
            rules={usernamesRules(t)}
            extra={t('clusters.instance.usernamesHint')}
          >
            <Input autoComplete="off" />
          </Form.Item>
        </Space>
        <Space>
          <Button type="primary" htmlType="submit" loading={scanning}>
            {taskId ? t('clusters.scan.again') : t('clusters.scan.start')}
          </Button>
          <Space>
            <Switch
              checked={hide}
              disabled={taskId === null || scanning}
              aria-label={t('clusters.scan.hideDuplicate')}
              onChange={(on) => {
                setHide(on);
                if (values) run(values);
              }}
            />
            <span>{t('clusters.scan.hideDuplicate')}</span>
          </Space>
        </Space>
      </Form>
      {scanning ? (
        <div style={{ marginTop: 24 }}>
          <Spin /> <Typography.Text type="secondary">{t('clusters.scan.scanning')}</Typography.Text>
        </div>
      ) : null}
      {done && status.data ? (
        <div style={{ marginTop: 24 }}>
          <Table<ScanRow>
            rowKey="ip"
            size="small"
            pagination={false}
            dataSource={status.data.objects}
            rowSelection={{
              selectedRowKeys: chosen,
              onChange: (keys) => setChosen(keys.map(String)),
              getCheckboxProps: (r) => ({ disabled: r.exists, name: r.ip }),
            }}
            columns={[
              { key: 'ip', dataIndex: 'ip', title: t('clusters.scan.col.ip') },
              { key: 'port', dataIndex: 'port', title: t('clusters.scan.col.port') },
              {
                key: 'exists',
                title: t('clusters.scan.col.state'),
                render: (_: unknown, r: ScanRow) =>
                  r.exists ? (
                    <Tag color="warning">{t('clusters.scan.exists')}</Tag>
                  ) : (
                    <Tag color="success">{t('clusters.scan.new')}</Tag>
                  ),
              },
            ]}
          />
          <Space style={{ marginTop: 16 }}>
            <Button onClick={() => panel.close(SCAN_IMPORT_PANEL)}>
              {t('common.action.cancel')}
            </Button>
            <Button
              type="primary"
              disabled={chosen.length === 0}
              loading={create.isPending}
              onClick={onImport}
            >
              {t('clusters.scan.import', { count: chosen.length })}
            </Button>
          </Space>
        </div>
      ) : null}
    </div>
  );
}
