import { Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLayoutSettings } from '../layout-settings.tsx';

export function Content({ children }: { children: ReactNode }) {
  const { contentWidth } = useLayoutSettings();
  return contentWidth === 'boxed' ? (
    <Container size="lg" px={0}>
      {children}
    </Container>
  ) : (
    <Container fluid px={0}>
      {children}
    </Container>
  );
}
