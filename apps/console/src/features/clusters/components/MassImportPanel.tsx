import { useState, type ReactNode } from 'react';
import { App, Button, Space, Typography, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { resourceRoutes } from '@portcullis/contract';
import { apiUrl } from '../../../shared/api/client';
import { readFileAsBase64 } from '../../../shared/files';
import { useErrorText } from '../../../shared/i18n/errors';
import { usePanel } from '../../../shared/panel/panel-context';
import { RightPanel } from '../../../shared/panel/RightPanel';
import { useBatchImportMutation, type ResourceKind } from '../api';

export const MASS_IMPORT_PANEL = 'panel/clusters/mass-import';

/**
 * Batch import by spreadsheet (spec 2 §7, §8): the template in the reader's language, then an
 * xlsx file; all rows or none are imported, and each failure code shows its own text.
 */
export function MassImportPanel({
  clusterId,
  kind,
}: {
  clusterId: number;
  kind: ResourceKind;
}): ReactNode {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const errorText = useErrorText();
  const panel = usePanel();
  const mutation = useBatchImportMutation(clusterId);
  const [error, setError] = useState<string | null>(null);
  const type = kind === 'ecs' ? 'ecs' : 'database';
  const language = i18n.language === 'zh_CN' ? 'zh_CN' : 'en_US';

  const onFile = async (file: File): Promise<void> => {
    setError(null);
    if (!/\.xlsx$/i.test(file.name)) {
      setError(t('errors.FileTypeError'));
      return;
    }
    const data = await readFileAsBase64(file);
    mutation.mutate(
      { resource_type: type, data, file_name: file.name, extension: 'xlsx' },
      {
        onSuccess: () => {
          void message.success(t('clusters.import.success'));
          panel.close(MASS_IMPORT_PANEL);
        },
        onError: (e) => setError(errorText(e)),
      },
    );
  };

  return (
    <RightPanel
      panelKey={MASS_IMPORT_PANEL}
      title={t('clusters.import.title')}
      onAfterClose={() => setError(null)}
    >
      <Typography.Paragraph>{t('clusters.import.step1')}</Typography.Paragraph>
      <Button
        icon={<DownloadOutlined />}
        href={apiUrl(resourceRoutes.importTemplate, undefined, { type, language })}
        download
      >
        {t('clusters.import.template')}
      </Button>
      <Typography.Paragraph style={{ marginTop: 24 }}>
        {t('clusters.import.step2')}
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Upload
          accept=".xlsx"
          showUploadList={false}
          beforeUpload={(file) => {
            void onFile(file);
            return false;
          }}
        >
          <Button type="primary" icon={<UploadOutlined />} loading={mutation.isPending}>
            {t('clusters.import.upload')}
          </Button>
        </Upload>
        {error ? (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        ) : null}
      </Space>
    </RightPanel>
  );
}
