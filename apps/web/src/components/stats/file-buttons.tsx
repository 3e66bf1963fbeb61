import type { StatsFileFormat } from '@adp/contract';
import { Button, Group } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDownload, saveFile } from '../../lib/api-client.ts';

/**
 * The CSV and XLSX buttons of a statistics table: GET `path` (an `…/export` call of the API) with the
 * table's own query and `format`, with the bearer token; the file is named by the server's
 * Content-Disposition (`fallback` otherwise).
 * @example <FileButtons path={`/dsppartners/${id}/stats/export`} query={{ from, to, tz, group }} fallback="stats.csv" />
 */
export function FileButtons({
  path,
  query,
  fallback,
}: {
  path: string;
  query: Record<string, string | number | undefined>;
  fallback: string;
}) {
  const { t } = useTranslation('stats');
  const download = useMutation({
    mutationFn: async (format: StatsFileFormat) =>
      saveFile(
        await apiDownload(path, {
          query: { ...query, format },
          fallback: fallback.replace(/\.[a-z]+$/, `.${format}`),
        }),
      ),
  });
  const [busy, setBusy] = useState<StatsFileFormat | null>(null);
  const run = (format: StatsFileFormat) => {
    setBusy(format);
    download.mutate(format, { onSettled: () => setBusy(null) });
  };
  return (
    <Group gap={6} role="group" aria-label={t('screen.export')}>
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          size="compact-xs"
          variant="default"
          leftSection={<IconDownload size={14} aria-hidden />}
          loading={busy === format}
          disabled={busy !== null}
          onClick={() => run(format)}
          aria-label={t(`screen.export_${format}`)}
        >
          {format.toUpperCase()}
        </Button>
      ))}
    </Group>
  );
}
