/**
 * i18next set-up. Resources come from three places, all in both languages:
 * - `locales/<language>/<feature>.json`, one file per feature, under the key `<feature>`;
 * - the contract's error catalogue, under `errors.<code>`;
 * - the contract's exact form and notice texts (MESSAGES), under `messages.<key>`.
 */
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { ERRORS, LANGUAGES, MESSAGES, type Language } from '@portcullis/contract';
import { initialLanguage, isLanguage } from '../shared/i18n/language';

type Tree = { [key: string]: string | Tree };

const localeFiles = import.meta.glob<Tree>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** The contract writes placeholders as `{name}`; i18next reads `{{name}}`. */
function toI18nPlaceholders(text: string): string {
  return text.replace(/\{([A-Za-z_]+)\}/g, '{{$1}}');
}

export function buildResources(): Resource {
  const resources: Resource = {};
  for (const language of LANGUAGES) {
    const side = language === 'zh_CN' ? 'zh' : 'en';
    const translation: Tree = {};
    for (const [path, tree] of Object.entries(localeFiles)) {
      const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
      if (!match || match[1] !== language || !match[2]) continue;
      translation[match[2]] = tree;
    }
    const errors: Tree = {};
    for (const [code, entry] of Object.entries(ERRORS)) {
      errors[code.replace(/\./g, '_')] = toI18nPlaceholders(entry[side]);
    }
    const messages: Tree = {};
    for (const [key, entry] of Object.entries(MESSAGES)) messages[key] = entry[side];
    translation.errors = errors;
    translation.messages = messages;
    resources[language] = { translation };
  }
  return resources;
}

function applyDayjsLocale(language: string): void {
  dayjs.locale(language === 'zh_CN' ? 'zh-cn' : 'en');
}

/** Initialises the shared i18next instance once and returns it. */
export function initI18n(language: Language = initialLanguage()): I18n {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: buildResources(),
      lng: language,
      fallbackLng: 'en_US',
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
      showSupportNotice: false,
    });
    i18next.on('languageChanged', (lng) => {
      applyDayjsLocale(lng);
      if (typeof document !== 'undefined' && isLanguage(lng)) {
        document.documentElement.lang = lng === 'zh_CN' ? 'zh-CN' : 'en';
      }
    });
  } else if (i18next.language !== language) {
    void i18next.changeLanguage(language);
  }
  applyDayjsLocale(i18next.language);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = i18next.language === 'zh_CN' ? 'zh-CN' : 'en';
  }
  return i18next;
}
