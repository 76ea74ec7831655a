import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { LoadingOutlined } from '@ant-design/icons';
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
        button={{
          // Button labels read as written ('登录', not '登 录').
          autoInsertSpace: false,
          // A spinner of our own, shown and removed at once. antd's own slides out, and when the
          // work ends within a few milliseconds its exit can stall: the invisible spinner stays
          // in the button for good and screen readers announce it as "loading Sign in".
          loadingIcon: <LoadingOutlined />,
        }}
      >
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
