import { Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { MaintenanceBanner } from '../../features/system/maintenance-banner.tsx';
import { useLayoutSettings } from '../layout-settings.tsx';

export function Content({ children }: { children: ReactNode }) {
  const { contentWidth } = useLayoutSettings();
  // admins keep working while the maintenance switch is on: the banner says it is on
  const page = (
    <>
      <MaintenanceBanner />
      {children}
    </>
  );
  // room below the last row for the floating scroll-to-top button (44 px, 20 px above the bottom), so it never
  // covers the end of a page scrolled to its bottom
  return contentWidth === 'boxed' ? (
    <Container size="lg" px={0} pb={72}>
      {page}
    </Container>
  ) : (
    <Container fluid px={0} pb={72}>
      {page}
    </Container>
  );
}
