import { useCallback, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { authRoutes } from '@portcullis/contract';
import { apiUrl } from '../api/client';

function newNonce(): string {
  return Math.random().toString(36).slice(2);
}

/** A captcha nonce and its refresh: every new nonce loads a new image and a new answer. */
export function useCaptcha(): { nonce: string; refresh: () => void } {
  const [nonce, setNonce] = useState(newNonce);
  const refresh = useCallback(() => setNonce(newNonce()), []);
  return { nonce, refresh };
}

export interface CaptchaImageProps {
  nonce: string;
  onRefresh: () => void;
}

/** The captcha picture (SVG from the server); a click, Enter or Space loads a new one. */
export function CaptchaImage({ nonce, onRefresh }: CaptchaImageProps): ReactNode {
  const { t } = useTranslation();
  const onKeyDown = (event: KeyboardEvent<HTMLImageElement>): void => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRefresh();
    }
  };
  return (
    <img
      className="pc-captcha"
      src={apiUrl(authRoutes.captcha, undefined, { r: nonce })}
      alt={t('common.captcha.alt')}
      title={t('common.captcha.refresh')}
      role="button"
      tabIndex={0}
      width={120}
      height={40}
      onClick={onRefresh}
      onKeyDown={onKeyDown}
    />
  );
}
