import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCloudOff, IconMoodSad } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ChunkLoadError } from '../lib/lazy-page.ts';

function isChunkError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  // Vite's own message when a hashed chunk vanished after a deploy.
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed/.test(error.message)
  );
}

/** What routes.tsx's error boundaries show for a page that failed to load or render. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const chunk = isChunkError(error);
  if (!chunk) console.error(error);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="md" maw={480} ta="center" role="alert">
        <ThemeIcon size={80} radius={80} variant="light" color={chunk ? 'orange' : 'red'} aria-hidden>
          {chunk ? <IconCloudOff size={44} /> : <IconMoodSad size={44} />}
        </ThemeIcon>
        <Title order={1} fz={24}>
          {chunk ? t('errors:chunk_load') : t('misc.error_title')}
        </Title>
        <Text c="dimmed">{chunk ? t('errors:chunk_load_retry') : t('errors:generic')}</Text>
        <Button onClick={() => window.location.reload()}>{t('retry')}</Button>
      </Stack>
    </Center>
  );
}
