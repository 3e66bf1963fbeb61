import { BrowserRouter } from 'react-router';
import { currentLocale } from '../lib/i18n.ts';
import { AppProviders } from './providers.tsx';
import { AuthExpiredRedirect } from './router.tsx';
import { AppRoutes } from './routes.tsx';

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AuthExpiredRedirect getLocale={currentLocale} />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
