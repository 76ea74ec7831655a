import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/AppProviders';
import { FEATURES } from './app/features';
import { initI18n } from './app/i18n';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import './app/styles.css';

initI18n();
const queryClient = createQueryClient();
const router = createAppRouter(FEATURES);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
