import { Button } from '@mantine/core';
import { IconClipboard } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyErrorMessage, notifySuccess } from '../../../lib/notify.ts';

/** Copies the creative id for the advertiser's own reports; a refused clipboard says so. */
export function CopyIdButton({ id }: { id: string }) {
  const { t } = useTranslation('banners');
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(id);
      notifySuccess(t('view.id_copied', { id }));
    } catch {
      notifyErrorMessage(t('errors:creative_id_copy'));
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconClipboard size={16} aria-hidden />}
      onClick={() => void copy()}
    >
      {t('view.copy_id')}
    </Button>
  );
}
