import { AppShell, Box, Drawer } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigationScheme } from '../layout-settings.tsx';
import { AppHeader } from './app-header.tsx';
import { Content } from './content.tsx';
import { HorizontalNav, VerticalNav } from './nav-links.tsx';

export function HorizontalLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const navigationScheme = useNavigationScheme();
  return (
    <AppShell header={{ height: 60 }} padding={{ base: 'sm', sm: 'md', lg: 'lg' }} data-layout="horizontal">
      <AppShell.Header className="app-header app-navbar" {...navigationScheme}>
        <AppHeader drawerOpened={opened} onBurger={toggle}>
          <Box visibleFrom="sm" ml="md" style={{ flex: 1, minWidth: 0 }}>
            <HorizontalNav />
          </Box>
        </AppHeader>
      </AppShell.Header>
      <AppShell.Main>
        <Content>{children}</Content>
      </AppShell.Main>
      <Drawer
        opened={opened}
        onClose={close}
        size={280}
        title={t('header.menu')}
        hiddenFrom="sm"
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        <VerticalNav onNavigate={close} />
      </Drawer>
    </AppShell>
  );
}
