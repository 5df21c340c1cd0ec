import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ToastProvider } from './ui/Toast';
import { adoptDeepLink } from './url-state';
import './theme/tokens.css';
import './styles.css';
import './ui/ui.css';
import { I18nProvider } from './i18n/I18nProvider';

const initial = adoptDeepLink(window.location, window.history);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider>
      <ToastProvider>
        <App initial={initial} />
      </ToastProvider>
    </I18nProvider>
  </StrictMode>,
);
