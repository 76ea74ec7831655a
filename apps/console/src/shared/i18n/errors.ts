/**
 * Error texts: the contract's catalogue (ERRORS) becomes the `errors.*` translation keys, so a
 * failure is shown in the reader's language by its code; an unknown code falls back to the
 * server's error_message. A text with placeholders only the server can fill (the address in
 * WhitelistExcludesSelf) is the server's error_message, which the client asks for in the
 * reader's language.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ERRORS } from '@portcullis/contract';
import { isApiError } from '../api/client';

const SERVER_PLACEHOLDER = /\{(?!field\})[A-Za-z_]+\}/;

function needsServerText(code: string): boolean {
  const entry = (ERRORS as Record<string, { en: string } | undefined>)[code];
  return entry !== undefined && SERVER_PLACEHOLDER.test(entry.en);
}

/** Catalogue codes may contain dots (InvalidInstanceId.NotFound); i18n keys may not. */
export function errorKey(code: string): string {
  return `errors.${code.replace(/\./g, '_')}`;
}

export function errorText(error: unknown, t: TFunction): string {
  if (isApiError(error)) {
    if (error.errorMessage && needsServerText(error.code)) return error.errorMessage;
    const key = errorKey(error.code);
    const params = { field: error.field ?? '' };
    return t(key, { ...params, defaultValue: error.errorMessage || error.code });
  }
  if (error instanceof Error && error.message) return error.message;
  return t(errorKey('UnknowError'));
}

/** `(error) => text` in the current language. */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => errorText(error, t), [t]);
}
