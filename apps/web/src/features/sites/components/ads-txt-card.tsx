import { type AdsTxtCheck, adsTxtCheck, adsTxtLine, type Site } from '@adp/contract';
import { Alert, Button, Card, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconWorldSearch } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyTextButton } from '../../../components/copy-text-button.tsx';
import { apiRequest } from '../../../lib/api-client.ts';

function CheckResult({ result }: { result: AdsTxtCheck }) {
  const { t } = useTranslation('partners');
  if (result.found)
    return (
      <Alert color="teal" role="status" icon={<IconCheck size={16} aria-hidden />}>
        {t('adstxt.found', { url: result.url })}
      </Alert>
    );
  return (
    <Alert color={result.error ? 'red' : 'yellow'} role="status">
      {result.error
        ? t(`adstxt.error.${result.error}`, { url: result.url, status: result.status ?? '' })
        : t('adstxt.missing', { url: result.url })}
    </Alert>
  );
}

/**
 * The site owner's ads.txt line (`<our domain>, <seller id>, DIRECT[, <cert id>]`) with a copy button,
 * and a check that fetches the site's ads.txt on the server (outbound guard) and says whether it is there.
 */
export function AdsTxtCard({ site }: { site: Site }) {
  const { t } = useTranslation('partners');
  const line = useQuery({
    queryKey: ['sites', site._id, 'adstxt'],
    queryFn: () => apiRequest(`/sites/${encodeURIComponent(site._id)}/adstxt`, { schema: adsTxtLine }),
  });
  const check = useMutation({
    mutationFn: () =>
      apiRequest(`/sites/${encodeURIComponent(site._id)}/adstxt/check`, {
        method: 'POST',
        schema: adsTxtCheck,
      }),
  });
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('adstxt.title')}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('adstxt.title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('adstxt.help', { domain: site.domain })}
        </Text>
        {line.data ? (
          <Group gap="xs" wrap="wrap">
            <Code fz="sm" data-testid="adstxt-line" style={{ overflowWrap: 'anywhere' }}>
              {line.data.line}
            </Code>
            <CopyTextButton
              value={line.data.line}
              label={t('adstxt.copy')}
              copiedLabel={t('adstxt.copied')}
            />
            <Button
              size="xs"
              variant="default"
              onClick={() => check.mutate()}
              loading={check.isPending}
              leftSection={<IconWorldSearch size={14} aria-hidden />}
            >
              {t('adstxt.check')}
            </Button>
          </Group>
        ) : (
          <Skeleton height={28} radius="sm" />
        )}
        {check.data ? <CheckResult result={check.data} /> : null}
      </Stack>
    </Card>
  );
}
