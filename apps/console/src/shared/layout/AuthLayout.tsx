import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { BrandMark } from '../components/BrandMark';

export interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Card width in pixels. */
  width?: number;
  /** Shown at the right of the top bar beside the language switch. */
  extra?: ReactNode;
}

/** The frame of the standalone screens: brand, language switch, one centred card. */
export function AuthLayout({
  title,
  subtitle,
  children,
  width = 420,
  extra,
}: AuthLayoutProps): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="pc-auth">
      <header className="pc-auth__bar">
        <BrandMark />
        <div className="pc-auth__bar-extra">
          {extra}
          <LanguageSwitch />
        </div>
      </header>
      <main className="pc-auth__main">
        <Card className="pc-auth__card" style={{ width, maxWidth: '100%' }}>
          <Typography.Title level={3} className="pc-auth__title">
            {title}
          </Typography.Title>
          {subtitle ? (
            <Typography.Paragraph type="secondary" className="pc-auth__subtitle">
              {subtitle}
            </Typography.Paragraph>
          ) : null}
          {children}
        </Card>
      </main>
      <footer className="pc-auth__footer">
        <Typography.Text type="secondary">{t('common.brand.tagline')}</Typography.Text>
      </footer>
    </div>
  );
}
