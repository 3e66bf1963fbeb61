import { Button, Code, Stack, Text } from '@mantine/core';
import { IconClipboard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyErrorMessage, notifySuccess } from '../../../lib/notify.ts';

/** The snippet to paste into the advertiser's pages, with a copy button. */
export function PixelCode({ code }: { code: string }) {
  const { t } = useTranslation('pixels');
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(code);
      notifySuccess(t('code.copied'));
    } catch {
      notifyErrorMessage(t('errors:pixel_code_copy'));
    }
  };
  return (
    <Stack gap="xs">
      <Text fz="sm" c="dimmed">
        {t('code.hint')}
      </Text>
      <Code block aria-label={t('code.label')} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
      <Button
        variant="light"
        leftSection={<IconClipboard size={16} aria-hidden />}
        onClick={() => void copy()}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('code.copy')}
      </Button>
    </Stack>
  );
}
