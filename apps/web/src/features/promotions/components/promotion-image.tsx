import type { PromotionPage } from '@adp/contract';
import { Button, Card, FileButton, Group, Image, Stack, Text, Title } from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../lib/notify.ts';
import { useUploadPromotionImage } from '../api/promotions-queries.ts';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** The page's image and, for those who may change it, the upload button (field `file`, type=promotion). */
export function PromotionImage({ page, canWrite }: { page: PromotionPage; canWrite: boolean }) {
  const { t } = useTranslation('promotions');
  const upload = useUploadPromotionImage(page._id);
  const onFile = async (file: File | null) => {
    if (!file) return;
    try {
      await upload.mutateAsync(file);
      notifySuccess(t('image.uploaded'));
    } catch {
      // the error toast says why (a file that is no image, too large)
    }
  };
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('image.title')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('image.title')}
          </Title>
          {canWrite ? (
            <FileButton onChange={onFile} accept={IMAGE_TYPES}>
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  leftSection={<IconUpload size={14} aria-hidden />}
                  loading={upload.isPending}
                >
                  {page.image ? t('image.replace') : t('image.upload')}
                </Button>
              )}
            </FileButton>
          ) : null}
        </Group>
        {page.image ? (
          <Image src={page.image} alt={t('image.alt', { title: page.title })} maw={360} radius="md" />
        ) : (
          <Group gap="xs" c="dimmed">
            <IconPhoto size={20} aria-hidden />
            <Text c="dimmed">{t('image.none')}</Text>
          </Group>
        )}
        <Text fz="xs" c="dimmed">
          {t('image.hint')}
        </Text>
      </Stack>
    </Card>
  );
}
