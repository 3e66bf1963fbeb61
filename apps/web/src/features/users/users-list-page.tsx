import { Card, Stack, Text, Title } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The admin users list; full user management arrives with its own issue. */
export function UsersListPage() {
  const { t } = useTranslation('users');
  return (
    <Stack gap="md">
      <Title order={1} fz={{ base: 22, sm: 26 }}>
        {t('list.title')}
      </Title>
      <Card padding="xl" radius="md">
        <Stack align="center" gap="sm">
          <IconUsers size={48} aria-hidden color="var(--mantine-color-dimmed)" />
          <Text c="dimmed" ta="center">
            {t('list.coming')}
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
