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
  return contentWidth === 'boxed' ? (
    <Container size="lg" px={0}>
      {page}
    </Container>
  ) : (
    <Container fluid px={0}>
      {page}
    </Container>
  );
}
