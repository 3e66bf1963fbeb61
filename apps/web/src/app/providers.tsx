import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './layouts/app-shell.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useMemo } from 'react';
import { AbilityProvider } from '../lib/ability.tsx';
import { TOAST_AUTO_CLOSE } from '../lib/notify.ts';
import { LayoutSettingsProvider, type Skin } from './layout-settings.tsx';
import { PageLoader } from './page-loader.tsx';
import { themeFor } from './theme.ts';

function ThemedApp({ skin, env, children }: { skin: Skin; env: 'default' | 'test'; children: ReactNode }) {
  const theme = useMemo(() => themeFor(skin), [skin]);
  useEffect(() => {
    document.documentElement.dataset.skin = skin;
  }, [skin]);
  return (
    <MantineProvider theme={theme} forceColorScheme={skin === 'dark' ? 'dark' : 'light'} env={env}>
      <Notifications autoClose={TOAST_AUTO_CLOSE} position="top-right" limit={8} />
      {children}
    </MantineProvider>
  );
}

export function AppProviders({
  queryClient,
  children,
  env = 'default',
}: {
  queryClient: QueryClient;
  children: ReactNode;
  env?: 'default' | 'test';
}) {
  return (
    <LayoutSettingsProvider>
      {(settings) => (
        <ThemedApp skin={settings.skin} env={env}>
          <QueryClientProvider client={queryClient}>
            <AbilityProvider>
              <Suspense fallback={<PageLoader />}>{children}</Suspense>
            </AbilityProvider>
          </QueryClientProvider>
        </ThemedApp>
      )}
    </LayoutSettingsProvider>
  );
}
