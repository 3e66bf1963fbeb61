import '../full-styles.ts';
import type { ReactNode } from 'react';
import type { LayoutType } from '../layout-settings.tsx';
import QueryBoundary from '../query-boundary.tsx';
import { Customizer } from './customizer.tsx';
import { HorizontalLayout } from './horizontal-layout.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';
import { VerticalLayout } from './vertical-layout.tsx';

/**
 * The logged-in app shell (menus, header, customizer) with every Mantine style: a chunk of its own,
 * so the login page does not download it.
 */
export default function DashboardShell({ layout, children }: { layout: LayoutType; children: ReactNode }) {
  const Layout = layout === 'horizontal' ? HorizontalLayout : VerticalLayout;
  return (
    <QueryBoundary>
      <Layout>{children}</Layout>
      <Customizer />
      <ScrollToTop />
    </QueryBoundary>
  );
}
