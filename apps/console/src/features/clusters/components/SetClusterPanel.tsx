import type { ReactNode } from 'react';
import {
  App,
  Button,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CLUSTER_NAME_MAX, type Cluster } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useUpdateClusterMutation } from '../api';
import {
  clampPort,
  clusterNameRules,
  fromSeconds,
  portMappingRules,
  TIME_UNITS,
  toSeconds,
  validityRules,
  type PortRow,
  type TimeUnit,
} from '../rules';

export const SET_CLUSTER_PANEL = 'panel/clusters/set';

export interface SetClusterValues {
  name: string;
  /** 1 the default (no limit), 2 a custom number and unit (spec 2 §3 codeSet). */
  codeSet: 1 | 2;
  time?: number | null;
  timeType: TimeUnit;
  is_open_map: boolean;
  port_map_info: PortRow[];
}

export function initialSetClusterValues(cluster: Cluster): SetClusterValues {
  const seconds = cluster.info.max_tunnel_expire_time;
  const shown = fromSeconds(seconds);
  return {
    name: cluster.name,
    codeSet: seconds === 0 ? 1 : 2,
    time: seconds === 0 ? null : shown.value,
    timeType: seconds === 0 ? 'minute' : shown.unit,
    is_open_map: cluster.info.is_open_map,
    port_map_info: cluster.info.port_map_info,
  };
}

/** Set Cluster: name, maximum code validity and port mapping rows (spec 2 §5). */
export function SetClusterPanel({ cluster }: { cluster: Cluster }): ReactNode {
  const { t } = useTranslation();
  return (
    <RightPanel panelKey={SET_CLUSTER_PANEL} title={t('clusters.set.title')} width={560}>
      <SetClusterForm cluster={cluster} />
    </RightPanel>
  );
}

export function SetClusterForm({ cluster }: { cluster: Cluster }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useUpdateClusterMutation(cluster.id);
  const [form] = Form.useForm<SetClusterValues>();
  const codeSet = Form.useWatch('codeSet', form) ?? initialSetClusterValues(cluster).codeSet;

  const onFinish = (values: SetClusterValues): void => {
    const rows = (values.port_map_info ?? []).filter(
      (r) => r && r.origin_port != null && r.map_port != null,
    );
    mutation.mutate(
      {
        name: values.name.trim(),
        max_tunnel_expire_time:
          values.codeSet === 1 ? 0 : toSeconds(Number(values.time ?? 0), values.timeType),
        is_open_map: values.is_open_map,
        port_map_info: rows.map((r) => ({
          ip_name: (r.ip_name ?? '').trim(),
          origin_port: r.origin_port as number,
          map_port: r.map_port as number,
        })),
      },
      {
        onSuccess: () => {
          void message.success(t('messages.updateSuccess'));
          panel.close(SET_CLUSTER_PANEL);
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  return (
    <Form<SetClusterValues>
      form={form}
      layout="vertical"
      initialValues={initialSetClusterValues(cluster)}
      onFinish={onFinish}
    >
      <Form.Item name="name" label={t('clusters.set.name')} rules={clusterNameRules(t)}>
        <Input count={{ show: true, max: CLUSTER_NAME_MAX }} autoComplete="off" />
      </Form.Item>
      <Form.Item name="codeSet" label={t('clusters.set.validity')}>
        <Radio.Group
          options={[
            { value: 1, label: t('clusters.set.validityDefault') },
            { value: 2, label: t('clusters.set.validityCustom') },
          ]}
        />
      </Form.Item>
      {codeSet === 2 ? (
        <Space.Compact block>
          <Form.Item
            name="time"
            noStyle
            dependencies={['timeType']}
            rules={validityRules(t, () => form.getFieldValue('timeType') as TimeUnit)}
          >
            <InputNumber
              min={0}
              precision={0}
              aria-label={t('clusters.set.validityNumber')}
              style={{ width: '60%' }}
            />
          </Form.Item>
          <Form.Item name="timeType" noStyle>
            <Select<TimeUnit>
              aria-label={t('clusters.set.validityUnit')}
              style={{ width: '40%' }}
              options={(Object.keys(TIME_UNITS) as TimeUnit[]).map((unit) => ({
                value: unit,
                label: t(`clusters.set.unit.${unit}`),
              }))}
            />
          </Form.Item>
        </Space.Compact>
      ) : null}
      {codeSet === 2 ? (
        <Form.Item shouldUpdate noStyle>
          {() => {
            const errors = form.getFieldError('time');
            return errors.length > 0 ? (
              <Typography.Text type="danger" role="alert">
                {errors[0]}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">{t('clusters.set.validityHint')}</Typography.Text>
            );
          }}
        </Form.Item>
      ) : null}
      <Form.Item
        name="is_open_map"
        label={t('clusters.set.portMapping')}
        valuePropName="checked"
        style={{ marginTop: 16 }}
      >
        <Switch />
      </Form.Item>
      <Form.List name="port_map_info" rules={portMappingRules(t)}>
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <Space key={field.key} align="baseline" wrap>
                <Form.Item name={[field.name, 'ip_name']}>
                  <Input
                    placeholder={t('clusters.set.ipName')}
                    aria-label={t('clusters.set.ipNameRow', { row: index + 1 })}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'origin_port']}
                  normalize={clampPort}
                  rules={[{ required: true, message: t('clusters.rules.port') }]}
                >
                  <InputNumber
                    placeholder={t('clusters.set.originPort')}
                    aria-label={t('clusters.set.originPortRow', { row: index + 1 })}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'map_port']}
                  normalize={clampPort}
                  rules={[{ required: true, message: t('clusters.rules.port') }]}
                >
                  <InputNumber
                    placeholder={t('clusters.set.mapPort')}
                    aria-label={t('clusters.set.mapPortRow', { row: index + 1 })}
                  />
                </Form.Item>
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('clusters.set.removeRow', { row: index + 1 })}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Form.ErrorList errors={errors} />
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ ip_name: '' })}
              style={{ marginBottom: 16 }}
            >
              {t('clusters.set.addRow')}
            </Button>
          </>
        )}
      </Form.List>
      <div>
        <Space>
          <Button onClick={() => panel.close(SET_CLUSTER_PANEL)}>
            {t('common.action.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('common.action.save')}
          </Button>
        </Space>
      </div>
    </Form>
  );
}
