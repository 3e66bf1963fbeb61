import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function StatusPage({
  code,
  title,
  text,
  icon,
  color = 'indigo',
  action,
}: {
  code?: string;
  title: string;
  text: string;
  icon: ReactNode;
  color?: string;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" maw={560} mx="auto" py="xl" ta="center">
      <ThemeIcon size={96} radius={96} variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
      {code ? (
        <Text fz={56} fw={800} c={color} lh={1} aria-hidden>
          {code}
        </Text>
      ) : null}
      <Title order={1} fz={{ base: 24, sm: 32 }}>
        {title}
      </Title>
      <Text c="dimmed">{text}</Text>
      {action ?? (
        <Button component={Link} to="/">
          {t('common:back_home')}
        </Button>
      )}
    </Stack>
  );
}
