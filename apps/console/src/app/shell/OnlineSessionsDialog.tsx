/**
 * The header's online sessions dialog (spec 1 §2.4): the sessions the caller may see, paged,
 * with multi-select disconnect. It fetches only while open.
 */
import type { ReactNode } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { OnlineConnectionsTable } from '../../shared/online/OnlineConnectionsTable';

export interface OnlineSessionsDialogProps {
  open: boolean;
  onClose: () => void;
}

export function OnlineSessionsDialog({ open, onClose }: OnlineSessionsDialogProps): ReactNode {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('online.dialog.title')}
      onCancel={onClose}
      footer={null}
      width={960}
      destroyOnHidden
    >
      <OnlineConnectionsTable enabled={open} />
    </Modal>
  );
}
