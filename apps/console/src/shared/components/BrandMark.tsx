import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface BrandMarkProps {
  /** Only the mark, without the product name (a collapsed navigation). */
  compact?: boolean;
}

/** The Portcullis mark and name. */
export function BrandMark({ compact = false }: BrandMarkProps): ReactNode {
  const { t } = useTranslation();
  return (
    <span className="pc-brand">
      <svg className="pc-brand__mark" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="6" fill="#1d39c4" />
        <path
          d="M7 9h18v3H7zM9 12h2v13H9zM15 12h2v13h-2zM21 12h2v13h-2zM7 16h18v2H7zM7 21h18v2H7z"
          fill="#fff"
        />
      </svg>
      {compact ? null : <span className="pc-brand__name">{t('common.brand.name')}</span>}
    </span>
  );
}
