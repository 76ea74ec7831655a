/**
 * What a part of a page shows when its data could not be loaded: the reason in the member's
 * language and a Retry, in place of an empty state that would claim there is nothing.
 */
import type { ReactNode } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../i18n/errors';

export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }): ReactNode {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Alert
      type="error"
      showIcon
      message={errorText(error)}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.action.retry')}
        </Button>
      }
    />
  );
}
