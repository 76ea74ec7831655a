import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useLanguage } from '../shared/i18n/language';
import { setMessageApi } from './feedback';
import { theme } from './theme';

function FeedbackBridge(): ReactNode {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setMessageApi(message);
    return () => setMessageApi(null);
  }, [message]);
  return null;
}

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/** Query cache, Ant Design (theme and the locale of the chosen language) and message context. */
export function AppProviders({ queryClient, children }: AppProvidersProps): ReactNode {
  const [language] = useLanguage();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={language === 'zh_CN' ? zhCN : enUS}
        theme={theme}
        // Button labels read as written ('登录', not '登 录').
        button={{ autoInsertSpace: false }}
      >
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
