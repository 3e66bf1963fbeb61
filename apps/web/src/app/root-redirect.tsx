import { Navigate, useSearchParams } from 'react-router';
import { useAuth } from '../lib/use-auth.ts';

/** `/` has no page of its own: the user's page when logged in, else login (keeping `redirect`). */
export function RootRedirect() {
  const auth = useAuth();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const safe = redirect?.startsWith('/') && !redirect.startsWith('//') ? redirect : null;
  if (auth.accessToken && auth.userId) {
    return <Navigate to={safe ?? `/users/${auth.userId}`} replace />;
  }
  return <Navigate to={safe ? `/login?redirect=${encodeURIComponent(safe)}` : '/login'} replace />;
}
