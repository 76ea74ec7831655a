import type { ReactNode } from 'react';
import { Select } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@portcullis/contract';
import { useLanguage } from '../i18n/language';

/** The en_US / zh_CN switch of the header and the sign-in pages; the choice is remembered. */
export function LanguageSwitch(): ReactNode {
  const { t } = useTranslation();
  const [language, setLanguage] = useLanguage();
  return (
    <Select<Language>
      aria-label={t('common.language.label')}
      value={language}
      onChange={setLanguage}
      variant="borderless"
      prefix={<GlobalOutlined />}
      popupMatchSelectWidth={false}
      options={LANGUAGES.map((value) => ({ value, label: t(`common.language.${value}`) }))}
    />
  );
}
