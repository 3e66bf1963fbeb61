import type { ipImportResult } from '@adp/contract';
import { Alert, Button, FileButton, List, Stack, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

type Result = z.infer<typeof ipImportResult>;

/** Uploads a CSV of IPs and CIDR ranges; shows how many were kept and which lines were refused. */
export function ImportIps({
  onImport,
  label,
}: {
  onImport: (file: File) => Promise<Result>;
  label?: string;
}) {
  const { t } = useTranslation('campaigns');
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (file: File | null) => {
    if (!file) return;
    setBusy(true);
    try {
      setResult(await onImport(file));
    } catch {
      setResult(null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <FileButton onChange={(file) => void upload(file)} accept=".csv,text/csv,text/plain">
        {(props) => (
          <Button
            {...props}
            style={{ alignSelf: 'flex-start' }}
            variant="light"
            leftSection={<IconFileImport size={16} aria-hidden />}
            loading={busy}
          >
            {label ?? t('import_ips.button')}
          </Button>
        )}
      </FileButton>
      <Text fz="xs" c="dimmed">
        {t('import_ips.hint')}
      </Text>
      {result ? (
        <Alert color={result.errors.length ? 'yellow' : 'teal'} variant="light" role="status">
          <Text fz="sm">{t('import_ips.result', { imported: result.imported, total: result.total })}</Text>
          {result.errors.length ? (
            <>
              <Text fz="sm" fw={600} mt="xs">
                {t('import_ips.bad_rows', { count: result.errors.length })}
              </Text>
              <List fz="sm" size="sm">
                {result.errors.slice(0, 50).map((row) => (
                  <List.Item key={`${row.line}-${row.value}`}>
                    {t('import_ips.line', { line: row.line, value: row.value })}
                  </List.Item>
                ))}
              </List>
            </>
          ) : null}
        </Alert>
      ) : null}
    </Stack>
  );
}
