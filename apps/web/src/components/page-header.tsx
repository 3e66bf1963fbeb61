import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The title row of a dashboard page: heading, optional back link and the page's actions. */
export function PageHeader({
  title,
  subtitle,
  actions,
  back,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <Stack gap={4}>
      {back ? (
        <Anchor component={Link} to={back.to} fz="sm" c="dimmed">
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={14} aria-hidden />
            {back.label}
          </Group>
        </Anchor>
      ) : null}
      <Group justify="space-between" align="flex-end" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: 22, sm: 26 }} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {subtitle ? (
            // a div: a subtitle may hold badges and groups, which a paragraph may not contain
            <Text component="div" c="dimmed" fz="sm">
              {subtitle}
            </Text>
          ) : null}
        </div>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
    </Stack>
  );
}
