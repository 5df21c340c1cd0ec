import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { adoptDeepLink } from './url-state';
import './theme/tokens.css';
import './styles.css';

const initial = adoptDeepLink(window.location, window.history);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App initial={initial} />
  </StrictMode>,
);
