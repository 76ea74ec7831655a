/**
 * The interface language (en_US or zh_CN): chosen in the header or on the sign-in pages,
 * remembered in localStorage, and applied to i18next, Ant Design and dayjs together.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@portcullis/contract';

export const LANGUAGE_STORAGE_KEY = 'portcullis.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The remembered language, else the browser's (Chinese browsers get zh_CN), else en_US. */
export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage may be unavailable (private mode); fall through.
  }
  const browser = typeof navigator === 'undefined' ? '' : navigator.language.toLowerCase();
  return browser.startsWith('zh') ? 'zh_CN' : 'en_US';
}

export function rememberLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered; the switch still applies to this page.
  }
}

/** The current language and a setter that applies and remembers a new one. */
export function useLanguage(): [Language, (language: Language) => void] {
  const { i18n } = useTranslation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en_US';
  const setLanguage = useCallback(
    (next: Language) => {
      rememberLanguage(next);
      void i18n.changeLanguage(next);
    },
    [i18n],
  );
  return [language, setLanguage];
}
