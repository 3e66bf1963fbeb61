import { AppShell, Drawer, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigationScheme } from '../layout-settings.tsx';
import { AppHeader } from './app-header.tsx';
import { Content } from './content.tsx';
import { VerticalNav } from './nav-links.tsx';

export function VerticalLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const navigationScheme = useNavigationScheme();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding={{ base: 'sm', sm: 'md', lg: 'lg' }}
      data-layout="vertical"
    >
      <AppShell.Header className="app-header">
        <AppHeader drawerOpened={opened} onBurger={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm" className="app-navbar" visibleFrom="sm" {...navigationScheme}>
        {/* the admin's menu is taller than a laptop's window: it scrolls on its own */}
        <AppShell.Section grow component={ScrollArea} type="auto" offsetScrollbars>
          <VerticalNav />
        </AppShell.Section>
      </AppShell.Navbar>
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
        classNames={{ content: 'app-navbar', header: 'app-navbar' }}
      >
        <VerticalNav onNavigate={close} />
      </Drawer>
    </AppShell>
  );
}
