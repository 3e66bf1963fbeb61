import type { Agency } from '@adp/contract';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { Dropzone, type FileRejection, IMAGE_MIME_TYPE } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../lib/i18n.ts';
import { notifyErrorMessage, notifySuccess } from '../../../lib/notify.ts';
import { useUploadLogo } from '../api/agencies-queries.ts';
import { AgencyLogo } from './agency-logo.tsx';

/** The server's limit (agencies.service LOGO_MAX_BYTES). */
const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const accepted = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'].filter((type) =>
  (IMAGE_MIME_TYPE as string[]).includes(type),
);

const formatMegabytes = (value: number) =>
  new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: 'megabyte' }).format(value);

export function LogoUpload({ agency }: { agency: Agency }) {
  const { t } = useTranslation('agencies');
  const upload = useUploadLogo(agency._id);
  const onDrop = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    upload.mutate(file, { onSuccess: () => notifySuccess(t('logo.uploaded')) });
  };
  const onReject = (rejections: FileRejection[]) => {
    if (rejections.length > 0) notifyErrorMessage(t('errors:invalid_file'));
  };
  return (
    <Card padding="lg" radius="md" maw={720}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('resources.agencies.fields.logo')}
        </Title>
        <Group gap="md" wrap="nowrap" align="center">
          <AgencyLogo logo={agency.logo} title={agency.title} size={72} />
          <Dropzone
            onDrop={onDrop}
            onReject={onReject}
            maxSize={LOGO_MAX_BYTES}
            maxFiles={1}
            multiple={false}
            accept={accepted}
            loading={upload.isPending}
            style={{ flex: 1 }}
            aria-label={t('logo.upload')}
            name="file"
          >
            <Group justify="center" gap="sm" mih={72} style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={32} aria-hidden />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={32} aria-hidden />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconPhoto size={32} aria-hidden />
              </Dropzone.Idle>
              <div>
                <Text fw={500}>{t('logo.upload')}</Text>
                <Text c="dimmed" fz="sm">
                  {t('logo.hint', { size: formatMegabytes(LOGO_MAX_BYTES / 1024 / 1024) })}
                </Text>
              </div>
            </Group>
          </Dropzone>
        </Group>
      </Stack>
    </Card>
  );
}
