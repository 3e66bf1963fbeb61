import './base-styles.ts';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LayoutSettingsProvider, type Skin } from './layout-settings.tsx';
import { PageLoader } from './page-loader.tsx';
import { cssVariablesResolver, decimalSeparatorOf, themeFor } from './theme.ts';

const NotificationsHost = lazy(() => import('./notifications-host.tsx'));

/** The toast container (and its styles) loads with the first toast and then stays. */
function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const pending = notifications.length + queue.length > 0;
  const [wanted, setWanted] = useState(pending);
  useEffect(() => {
    if (pending) setWanted(true);
  }, [pending]);
  return wanted || pending ? (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  ) : null;
}

function ThemedApp({ skin, env, children }: { skin: Skin; env: 'default' | 'test'; children: ReactNode }) {
  const { t, i18n } = useTranslation('common');
  const decimal = decimalSeparatorOf(i18n.language);
  const clearLabel = t('form.clear');
  const theme = useMemo(() => themeFor(skin, decimal, clearLabel), [skin, decimal, clearLabel]);
  useEffect(() => {
    document.documentElement.dataset.skin = skin;
  }, [skin]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      // base-styles.ts leaves out default-css-variables.css: the provider writes every variable itself
      deduplicateCssVariables={false}
      forceColorScheme={skin === 'dark' ? 'dark' : 'light'}
      env={env}
    >
      <LazyNotifications />
      {children}
    </MantineProvider>
  );
}

function OptionalQueryClient({ client, children }: { client?: QueryClient; children: ReactNode }) {
  return client ? <QueryClientProvider client={client}>{children}</QueryClientProvider> : children;
}

export function AppProviders({
  queryClient,
  children,
  env = 'default',
}: {
  /** Tests pass their own; the app creates one lazily (query-boundary.tsx). */
  queryClient?: QueryClient;
  children: ReactNode;
  env?: 'default' | 'test';
}) {
  return (
    <LayoutSettingsProvider>
      {(settings) => (
        <ThemedApp skin={settings.skin} env={env}>
          <OptionalQueryClient client={queryClient}>
            {/* The CASL ability is given by the route guard (ability-gate.tsx), not here: /login does without it. */}
            <Suspense fallback={<PageLoader />}>{children}</Suspense>
          </OptionalQueryClient>
        </ThemedApp>
      )}
    </LayoutSettingsProvider>
  );
}
