import type { ReactNode } from 'react';
import { App, Button, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { CLUSTER_NAME_MAX } from '@portcullis/contract';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useCreateClusterMutation } from '../api';
import { clusterNameRules } from '../rules';

export const CREATE_CLUSTER_PANEL = 'panel/clusters/create';

/** Create cluster: a name up to 50 characters, trimmed (NetworkNameExist, NetworkExceeded). */
export function CreateClusterPanel(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useCreateClusterMutation();
  return (
    <RightPanel panelKey={CREATE_CLUSTER_PANEL} title={t('clusters.create.title')}>
      <Form<{ name: string }>
        layout="vertical"
        onFinish={({ name }) =>
          mutation.mutate(name, {
            onSuccess: () => {
              void message.success(t('messages.addSuccess'));
              panel.close(CREATE_CLUSTER_PANEL);
            },
            onError: (error) => void message.error(errorText(error)),
          })
        }
      >
        <Form.Item name="name" label={t('clusters.create.name')} rules={clusterNameRules(t)}>
          <Input count={{ show: true, max: CLUSTER_NAME_MAX }} autoComplete="off" autoFocus />
        </Form.Item>
        <Space>
          <Button onClick={() => panel.close(CREATE_CLUSTER_PANEL)}>
            {t('common.action.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('common.action.add')}
          </Button>
        </Space>
      </Form>
    </RightPanel>
  );
}
