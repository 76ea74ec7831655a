/**
 * The full-page web terminal (issue 6): the same xterm.js terminal as the Connect panel, filling
 * the window, opened in its own tab from Connect's Full screen. It connects at once with the
 * member's own code; Reconnect asks for a new single-use token. The resource's name comes in
 * the query only for the title: the token call decides what may be reached.
 */
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import './workgroup.css';

const WebTerminal = lazy(() => import('./components/WebTerminal'));

export function TerminalPage(): ReactNode {
  const { t } = useTranslation();
  const { id: idParam } = useParams();
  const [params] = useSearchParams();
  const id = Number(idParam);
  const name = params.get('name') ?? '';
  const valid = Number.isInteger(id) && id > 0;
  const title = t('workgroup.terminalPage.title', { name: name || (valid ? id : '-') });
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <main className="pc-terminal-page">
      <header className="pc-terminal-page__header">
        <Typography.Title level={5}>{title}</Typography.Title>
      </header>
      {valid ? (
        <Suspense fallback={<Spin aria-label={t('common.state.loading')} />}>
          <WebTerminal projectResourceId={id} autoConnect fill />
        </Suspense>
      ) : (
        <Result
          className="pc-terminal-page__invalid"
          status="warning"
          title={t('workgroup.terminalPage.invalid')}
        />
      )}
    </main>
  );
}
