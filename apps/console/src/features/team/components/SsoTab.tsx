/**
 * The SSO tab (spec 2 §2, §3 SSO config, §5 SSO rules): SAML 2.0 with the identity provider's
 * metadata. The URLs the provider needs (our login, assertion consumer and entity ID) come from
 * the server and are copied from here. A metadata file (xml only, one, at most 5 MB) is read by
 * the server at once, so the administrator sees the provider's entity, sign-in URL and
 * certificate before saving; without a new file the stored metadata stays.
 */
import { useState, type ReactNode } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
  Upload,
} from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  SSO_ID_VENDOR_MAX,
  SSO_TYPES,
  type SsoConfigReply,
  type SsoMetadataFile,
  type SsoMetadataInfo,
  type SsoType,
} from '@portcullis/contract';
import { readFileAsBase64 } from '../../../shared/files';
import {
  checkMetadataFile,
  ssoAccessDomainRules,
  ssoIdVendorRules,
} from '../../../shared/form/rules';
import { useErrorText } from '../../../shared/i18n/errors';
import { useParseMetadataMutation, useSsoConfigQuery, useUpdateSsoMutation } from '../api';

interface SsoForm {
  is_open: boolean;
  is_account_password: boolean;
  sso_type: SsoType;
  id_vendor: string;
  access_white_list: string[];
}

export function SsoTab(): ReactNode {
  const config = useSsoConfigQuery();
  if (!config.data) {
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  }
  return <SsoSettings config={config.data} />;
}

function Copyable({ value }: { value: string }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Typography.Text
      code
      className="pc-break-all"
      copyable={{ onCopy: () => void message.success(t('messages.copySuccess')) }}
    >
      {value}
    </Typography.Text>
  );
}

function MetadataInfo({ info }: { info: SsoMetadataInfo & { file_name?: string } }): ReactNode {
  const { t } = useTranslation();
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      className="pc-sso__metadata"
      items={[
        ...(info.file_name
          ? [{ key: 'file', label: t('team.sso.metadataFile'), children: info.file_name }]
          : []),
        { key: 'entity', label: t('team.sso.idpEntity'), children: info.entity_id },
        { key: 'url', label: t('team.sso.idpSsoUrl'), children: info.sso_url },
        ...info.certificates.map((c, i) => ({
          key: `cert-${i}`,
          label: t('team.sso.certificate', { index: i + 1 }),
          children: (
            <Space orientation="vertical" size={0}>
              <Typography.Text code className="pc-break-all">
                {c.fingerprint_sha256}
              </Typography.Text>
              <Typography.Text type="secondary">{c.subject}</Typography.Text>
            </Space>
          ),
        })),
      ]}
    />
  );
}

interface MetadataPickerProps {
  busy: boolean;
  shown: (SsoMetadataInfo & { file_name?: string }) | null;
  unsaved: boolean;
  onFile: (file: File) => void;
  /** Given by Form.Item; the file itself lives in the tab's state. */
  value?: unknown;
  onChange?: unknown;
}

function MetadataPicker({ busy, shown, unsaved, onFile }: MetadataPickerProps): ReactNode {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" className="pc-stack">
      <Upload
        accept=".xml,text/xml,application/xml"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          onFile(file);
          // Nothing is sent by the Upload itself: the file goes to parse_metadata as base64.
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          {t(shown ? 'team.sso.replaceMetadata' : 'team.sso.uploadMetadata')}
        </Button>
      </Upload>
      {unsaved ? <Alert type="info" showIcon title={t('team.sso.unsaved')} /> : null}
      {shown ? <MetadataInfo info={shown} /> : null}
    </Space>
  );
}

function SsoSettings({ config }: { config: SsoConfigReply }): ReactNode {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const [form] = Form.useForm<SsoForm>();
  const open = Form.useWatch('is_open', form) ?? config.is_open;
  const parse = useParseMetadataMutation();
  const update = useUpdateSsoMutation();
  const [upload, setUpload] = useState<{ file: SsoMetadataFile; info: SsoMetadataInfo } | null>(
    null,
  );
  const shown = upload?.info
    ? { ...upload.info, file_name: upload.file.file_name }
    : config.metadata;

  const onFile = async (file: File): Promise<void> => {
    const problem = checkMetadataFile(file);
    if (problem) {
      void message.error(t(problem === 'type' ? 'team.sso.xmlOnly' : 'team.sso.tooLarge'));
      return;
    }
    const metadata: SsoMetadataFile = {
      file_name: file.name,
      content: await readFileAsBase64(file),
    };
    parse.mutate(metadata, {
      onSuccess: (info) => {
        setUpload({ file: metadata, info });
        void form.validateFields(['metadata']);
      },
      onError: (error) => {
        setUpload(null);
        void message.error(t('team.sso.parseFailed', { reason: errorText(error) }));
      },
    });
  };

  const save = (values: SsoForm): void => {
    update.mutate(
      {
        is_open: values.is_open,
        is_account_password: values.is_account_password,
        sso_type: values.sso_type,
        id_vendor: values.id_vendor.trim(),
        access_white_list: [
          ...new Set((values.access_white_list ?? []).map((d) => d.trim().toLowerCase())),
        ],
        ...(upload ? { metadata: [upload.file] } : {}),
      },
      {
        onSuccess: () => {
          setUpload(null);
          void message.success(t('messages.updateSuccess'));
        },
        onError: (error) => void message.error(errorText(error)),
      },
    );
  };

  return (
    <Card>
      <Form<SsoForm>
        form={form}
        layout="vertical"
        className="pc-sso"
        initialValues={{
          is_open: config.is_open,
          is_account_password: config.is_account_password,
          sso_type: config.sso_type,
          id_vendor: config.id_vendor,
          access_white_list: config.access_white_list,
        }}
        onFinish={save}
      >
        <Form.Item name="is_open" label={t('team.sso.open')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="sso_type" label={t('team.sso.type')} rules={[{ required: true }]}>
          <Select options={SSO_TYPES.map((value) => ({ value, label: value }))} />
        </Form.Item>
        <Form.Item name="id_vendor" label={t('team.sso.idVendor')} rules={ssoIdVendorRules(t)}>
          <Input count={{ show: true, max: SSO_ID_VENDOR_MAX }} />
        </Form.Item>
        <Form.Item label={t('team.sso.loginUrl')} extra={t('team.sso.loginUrlHint')}>
          <Copyable value={config.login_url} />
        </Form.Item>
        <Form.Item label={t('team.sso.assertionUrl')} extra={t('team.sso.assertionUrlHint')}>
          <Copyable value={config.assertion_url} />
        </Form.Item>
        <Form.Item label={t('team.sso.spEntityId')} extra={t('team.sso.spEntityIdHint')}>
          <Copyable value={config.sp_entity_id} />
        </Form.Item>
        <Form.Item
          name="access_white_list"
          label={t('team.sso.accessWhiteList')}
          extra={t('team.sso.accessWhiteListHint')}
          dependencies={['is_open']}
          rules={ssoAccessDomainRules(open, t)}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[',', ' ']}
            placeholder={t('team.sso.accessWhiteListPlaceholder')}
            aria-label={t('team.sso.accessWhiteList')}
          />
        </Form.Item>
        <Form.Item
          name="metadata"
          label={t('team.sso.metadata')}
          extra={t('team.sso.metadataHint')}
          dependencies={['is_open']}
          rules={[
            {
              validator: async () => {
                if (open && !upload && !config.metadata) {
                  throw new Error(t('team.sso.metadataRequired'));
                }
              },
            },
          ]}
        >
          <MetadataPicker
            busy={parse.isPending}
            shown={shown}
            unsaved={upload !== null}
            onFile={(file) => void onFile(file)}
          />
        </Form.Item>
        <Form.Item
          name="is_account_password"
          label={t('team.sso.accountPassword')}
          valuePropName="checked"
          extra={t('team.sso.accountPasswordHint')}
        >
          <Switch />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common.action.save')}
        </Button>
      </Form>
    </Card>
  );
}
