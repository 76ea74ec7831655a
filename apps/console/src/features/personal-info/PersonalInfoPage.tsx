/**
 * Account info (spec 1 §2.11): avatar (png, gif or jpeg up to 1 MB), the editable name, the
 * login account, and the team's name and code.
 */
import type { ReactNode } from 'react';
import { App, Avatar, Button, Card, Descriptions, Skeleton, Space, Typography, Upload } from 'antd';
import { EditOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ROLE_NAMES } from '@portcullis/contract';
import { checkAvatarFile } from '../../shared/form/rules';
import { useErrorText } from '../../shared/i18n/errors';
import { PageHeader } from '../../shared/layout/PageHeader';
import { usePanel } from '../../shared/panel/panel-context';
import { roleOf, useCurrentAccountQuery } from '../../shared/session/session';
import { useUploadAvatarMutation } from './api';
import { EditNamePanel, EDIT_NAME_PANEL } from './components/EditNamePanel';

export function PersonalInfoPage(): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const account = useCurrentAccountQuery();
  const upload = useUploadAvatarMutation();

  const beforeUpload = (file: File): boolean => {
    const problem = checkAvatarFile(file);
    if (problem === 'type') void message.error(t('personal-info.avatar.typeError'));
    else if (problem === 'size') void message.error(t('messages.fileTooLarge1M'));
    else {
      upload.mutate(file, {
        onSuccess: () => void message.success(t('messages.updateSuccess')),
        onError: (error) => void message.error(errorText(error)),
      });
    }
    // The upload goes through POST /file above, never through the component's own request.
    return false;
  };

  if (!account.data) {
    return (
      <>
        <PageHeader title={t('personal-info.page.title')} />
        <Card>
          <Skeleton active avatar />
        </Card>
      </>
    );
  }
  const data = account.data;

  return (
    <>
      <PageHeader
        title={t('personal-info.page.title')}
        subtitle={t('personal-info.page.subtitle')}
      />
      <Card>
        <div className="pc-info">
          <Space orientation="vertical" align="center" className="pc-info__avatar">
            <Avatar
              size={96}
              src={data.avatar || undefined}
              icon={<UserOutlined />}
              alt={t('personal-info.avatar.alt')}
            />
            <Upload
              accept="image/png,image/gif,image/jpeg"
              showUploadList={false}
              beforeUpload={beforeUpload}
              maxCount={1}
            >
              <Button icon={<UploadOutlined />} loading={upload.isPending}>
                {t('personal-info.avatar.change')}
              </Button>
            </Upload>
            <Typography.Text type="secondary" className="pc-info__hint">
              {t('personal-info.avatar.hint')}
            </Typography.Text>
          </Space>
          <Descriptions
            className="pc-info__details"
            column={1}
            bordered
            items={[
              {
                key: 'name',
                label: t('personal-info.field.name'),
                children: (
                  <Space>
                    <span data-testid="account-name">{data.name}</span>
                    <Button
                      type="link"
                      size="small"
                      icon={<EditOutlined />}
                      onClick={() => panel.open(EDIT_NAME_PANEL)}
                    >
                      {t('personal-info.name.edit')}
                    </Button>
                  </Space>
                ),
              },
              { key: 'account', label: t('personal-info.field.account'), children: data.account },
              {
                key: 'role',
                label: t('personal-info.field.role'),
                children: t(`common.role.${ROLE_NAMES[roleOf(data)]}`),
              },
              {
                key: 'team',
                label: t('personal-info.field.team'),
                children: data.company.full_name,
              },
              {
                key: 'domain',
                label: t('personal-info.field.domain'),
                children: data.company.domain,
              },
            ]}
          />
        </div>
      </Card>
      <EditNamePanel current={data.name} />
    </>
  );
}
