import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Brand() {
  const { t } = useTranslation();
  return (
    <Box style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <IconSpeakerphone size={28} color="var(--mantine-primary-color-filled)" aria-hidden />
      <Text fw={700} fz="lg">
        {t('common:app_name')}
      </Text>
    </Box>
  );
}

export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <Paper p={{ base: 'lg', sm: 'xl' }} radius="md" w="100%" maw={440} mx="auto">
      <Stack gap="md">
        <Brand />
        <div>
          <Title order={1} fz={{ base: 22, sm: 26 }}>
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" fz="sm" mt={4}>
              {subtitle}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
