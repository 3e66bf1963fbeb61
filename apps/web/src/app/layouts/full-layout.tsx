import { Box, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { LocaleSwitcher } from './locale-switcher.tsx';

/** Route meta `layout: 'full'`: no navigation, the page centred on a plain background. */
export function FullLayout({ children }: { children: ReactNode }) {
  return (
    <Box className="full-layout" mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="flex-end" p="sm">
        <LocaleSwitcher />
      </Group>
      <Box
        component="main"
        px={{ base: 'sm', sm: 'md' }}
        pb="xl"
        style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        <Box w="100%">{children}</Box>
      </Box>
    </Box>
  );
}
