import type { ReactNode } from 'react';
import { Button, Form, Input, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALLOW_IP_PATTERN } from '@portcullis/contract';
import { useClientIpQuery } from '../api';
import { allowIpRules } from '../rules';

/**
 * Allowed IPs of a code (spec 1 §5): one dotted IPv4 address or several joined by ':', empty for
 * no limit. The member's own address (as the server sees it) can be added with one click.
 */
export function AllowIpField(): ReactNode {
  const { t } = useTranslation();
  const form = Form.useFormInstance<{ allow_ip?: string }>();
  const seen = useClientIpQuery().data?.ip ?? '';
  const mine = seen.startsWith('::ffff:') ? seen.slice(7) : seen;
  const offerMine = mine !== '' && ALLOW_IP_PATTERN.test(mine);

  const addMine = (): void => {
    const current = (form.getFieldValue('allow_ip') as string | undefined)?.trim() ?? '';
    const list = current ? current.split(':') : [];
    if (!list.includes(mine)) list.push(mine);
    form.setFieldsValue({ allow_ip: list.join(':') });
    void form.validateFields(['allow_ip']).catch(() => undefined);
  };

  return (
    <Form.Item label={t('workgroup.code.allowIp')} extra={t('workgroup.code.allowIpHint')}>
      <Space.Compact className="pc-full-width">
        <Form.Item name="allow_ip" noStyle rules={allowIpRules(t)}>
          <Input
            autoComplete="off"
            placeholder={t('workgroup.code.allowIpPlaceholder')}
            aria-label={t('workgroup.code.allowIp')}
          />
        </Form.Item>
        {offerMine ? (
          <Button icon={<PlusOutlined />} onClick={addMine}>
            {t('workgroup.code.addMyIp', { ip: mine })}
          </Button>
        ) : null}
      </Space.Compact>
    </Form.Item>
  );
}
