/**
 * Error texts: the contract's catalogue (ERRORS) becomes the `errors.*` translation keys, so a
 * failure is shown in the reader's language by its code; an unknown code falls back to the
 * server's error_message.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiError } from '../api/client';

/** Catalogue codes may contain dots (InvalidInstanceId.NotFound); i18n keys may not. */
export function errorKey(code: string): string {
  return `errors.${code.replace(/\./g, '_')}`;
}

export function errorText(error: unknown, t: TFunction): string {
  if (isApiError(error)) {
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
