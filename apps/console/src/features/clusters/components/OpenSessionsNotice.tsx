/**
 * Sessions read their rules when they start: a settings form whose save changes rules says how
 * many sessions are open under the old ones and offers to disconnect them on save, in the
 * form's own words (two keys, each counted).
 */
import type { ReactNode } from 'react';
import { Alert, Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';

export interface OpenSessionsNoticeProps {
  open: number;
  texts: { online: string; cutOnSave: string };
  cut: boolean;
  onCutChange: (cut: boolean) => void;
}

export function OpenSessionsNotice({
  open,
  texts,
  cut,
  onCutChange,
}: OpenSessionsNoticeProps): ReactNode {
  const { t } = useTranslation();
  if (open === 0) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      message={t(texts.online, { count: open })}
      description={
        <Checkbox checked={cut} onChange={(e) => onCutChange(e.target.checked)}>
          {t(texts.cutOnSave, { count: open })}
        </Checkbox>
      }
    />
  );
}
