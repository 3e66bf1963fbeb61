import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyErrorMessage } from '../../../lib/notify.ts';
import { embedCode } from './embed-script.ts';

/** The code a publisher pastes, with a copy button ('Copy error!' when the clipboard refuses). */
export function EmbedCode({ widgetId }: { widgetId: string }) {
  const { t } = useTranslation('widgets');
  const [copied, setCopied] = useState(false);
  const code = embedCode(widgetId);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(code);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      notifyErrorMessage(t('errors:copy'));
    }
  };
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('embed.title')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('embed.title')}
          </Title>
          <Button
            size="xs"
            variant={copied ? 'light' : 'filled'}
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
            onClick={copy}
          >
            {copied ? t('embed.copied') : t('embed.copy')}
          </Button>
        </Group>
        <Text fz="sm" c="dimmed">
          {t('embed.hint')}
        </Text>
        <Code block data-testid="embed-code" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {code}
        </Code>
      </Stack>
    </Card>
  );
}
