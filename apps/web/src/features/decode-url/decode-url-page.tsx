import { type DecodedBid, type DecodedToken, type DecodedUrl, decodeUrlRequest } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextarea } from '../../components/form-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
import { setFieldErrors } from '../../lib/form-errors.ts';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import { useDecodeUrl } from './api/decode-url-queries.ts';

/** A label and its value, in the grid of facts. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

const yesNo = (v: boolean, t: (k: string) => string) => (
  <Badge color={v ? 'green' : 'gray'} variant="light">
    {v ? t('yes') : t('no')}
  </Badge>
);

/** Device, OS and browser in the reader's language (the token keeps their codes). */
function useDeviceText() {
  const { t } = useTranslation('decode');
  return (token: DecodedToken) =>
    [
      token.device ? t(`stats:devices.${token.device}`, { defaultValue: token.device }) : '',
      token.os ? t(`banners:targeting.os_names.${token.os}`, { defaultValue: token.os }) : '',
      token.browser ? t(`banners:targeting.browser.${token.browser}`, { defaultValue: token.browser }) : '',
    ]
      .filter(Boolean)
      .join(' · ') || '—';
}

/** An exchange URL's signed bid: who asked, what we bid with, and which notices came back. */
function BidCard({ bid }: { bid: DecodedBid }) {
  const { t } = useTranslation('decode');
  const named = (title: string | null, id: string) => (title ? `${title} (#${id})` : `#${id} · ${t('gone')}`);
  const notice = (n: DecodedBid['nurl'], billing: boolean) =>
    n ? (
      <Badge color="green" variant="light" tt="none">
        {t('bid.notice_price', { price: formatMoney(n.price), at: formatDateTime(n.created_at) })}
        {billing ? ` · ${t('bid.charged', { price: formatMoney(n.charged) })}` : ''}
      </Badge>
    ) : (
      <Badge color="gray" variant="light">
        {t('bid.not_received')}
      </Badge>
    );
  return (
    <Card withBorder padding="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('bid.title')}
          </Title>
          <Badge color={bid.status === 'valid' ? 'green' : 'orange'}>{t(`status.${bid.status}`)}</Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <Fact label={t('token.issued_at')}>{formatDateTime(bid.issued_at)}</Fact>
          <Fact label={t('token.expires_at')}>{formatDateTime(bid.expires_at)}</Fact>
          <Fact label={t('bid.bid_id')}>{bid.bid_id}</Fact>
          <Fact label={t(`bid.channel_${bid.channel}`)}>{named(bid.partner_name, bid.partner_id)}</Fact>
          <Fact label={t('bid.campaign')}>{named(bid.campaign_title, bid.campaign_id)}</Fact>
          <Fact label={t('bid.creative')}>{named(bid.banner_title, bid.banner_id)}</Fact>
          <Fact label={t('bid.source')}>{bid.source || '—'}</Fact>
          <Fact label={t('bid.amount')}>{formatMoney(bid.bid)}</Fact>
          <Fact label={t('bid.currency')}>
            {bid.rate === 1 ? bid.currency : `${bid.currency} (× ${bid.rate})`}
          </Fact>
        </SimpleGrid>
        <Group gap="lg">
          <Group gap={6}>
            <Text size="sm">{t('bid.nurl')}</Text>
            {notice(bid.nurl, false)}
          </Group>
          <Group gap={6}>
            <Text size="sm">{t('bid.burl')}</Text>
            {notice(bid.burl, true)}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

function TokenCard({ token, kind }: { token: DecodedToken; kind: DecodedUrl['kind'] }) {
  const { t } = useTranslation('decode');
  const deviceText = useDeviceText();
  const named = (title: string | null, id: string) => (title ? `${title} (#${id})` : `#${id} · ${t('gone')}`);
  return (
    <Card withBorder padding="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('token.title')}
          </Title>
          <Badge color={token.status === 'valid' ? 'green' : 'orange'}>{t(`status.${token.status}`)}</Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <Fact label={t('token.issued_at')}>{formatDateTime(token.issued_at)}</Fact>
          <Fact label={t('token.expires_at')}>{formatDateTime(token.expires_at)}</Fact>
          <Fact label={t('token.impression_id')}>{token.impression_id}</Fact>
          <Fact label={t('token.site')}>{named(token.site_title, token.site_id)}</Fact>
          <Fact label={t('token.widget')}>{named(token.widget_title, token.widget_id)}</Fact>
          <Fact label={t('token.visitor')}>{token.visitor_id || '—'}</Fact>
          <Fact label={t('token.geo')}>{[token.country, token.city].filter(Boolean).join(', ') || '—'}</Fact>
          <Fact label={t('token.device')}>{deviceText(token)}</Fact>
          {token.material_id ? <Fact label={t('token.material')}>#{token.material_id}</Fact> : null}
        </SimpleGrid>
        <Group gap="lg">
          <Group gap={6}>
            <Text size="sm">{t('token.impression_counted')}</Text>
            {yesNo(token.impression_counted, t)}
          </Group>
          <Group gap={6}>
            <Text size="sm">{t('token.view_counted')}</Text>
            {yesNo(token.view_counted, t)}
          </Group>
          {kind === 'click' || kind === 'markup_click' ? (
            <Group gap={6}>
              <Text size="sm">{t('token.click')}</Text>
              {token.click ? (
                <Badge color={token.click.status === 'charged' ? 'green' : 'red'} variant="light">
                  {token.click.status === 'charged'
                    ? t('click.charged', { price: formatMoney(token.click.price) })
                    : t('click.invalid', { reason: token.click.reason ?? '' })}
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  {t('click.none')}
                </Badge>
              )}
            </Group>
          ) : null}
        </Group>
        <TableScroll minWidth={520} label={t('items.title')}>
          <Table striped aria-label={t('items.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('items.position')}</Table.Th>
                <Table.Th>{t('items.campaign')}</Table.Th>
                <Table.Th>{t('items.creative')}</Table.Th>
                <Table.Th ta="right">{t('items.price')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {token.items.map((item) => (
                <Table.Tr
                  key={item.position}
                  fw={item.position === token.position ? 700 : undefined}
                  aria-current={item.position === token.position ? 'true' : undefined}
                >
                  <Table.Td>
                    {item.position + 1}
                    {item.position === token.position ? ` · ${t('items.clicked')}` : ''}
                  </Table.Td>
                  <Table.Td>{named(item.campaign_title, item.campaign_id)}</Table.Td>
                  <Table.Td>{item.url ?? named(item.banner_title, item.banner_id)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(item.price)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </Stack>
    </Card>
  );
}

function Result({ result }: { result: DecodedUrl }) {
  const { t } = useTranslation('decode');
  return (
    <Stack gap="md">
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="light">{t(`kind.${result.kind}`)}</Badge>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {result.origin}
              {result.path}
            </Text>
          </Group>
          {result.error ? (
            <Alert
              color="red"
              icon={<IconAlertTriangle size={18} aria-hidden />}
              title={t(`error.${result.error}`)}
            >
              {t(`error.${result.error}_text`)}
            </Alert>
          ) : null}
          {result.params.length ? (
            <TableScroll minWidth={360} label={t('params.title')}>
              <Table aria-label={t('params.title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('params.name')}</Table.Th>
                    <Table.Th>{t('params.value')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.params.map((p, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a name may repeat; the list never reorders
                    <Table.Tr key={`${p.name}-${i}`}>
                      <Table.Td>{p.name}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.value}</Table.Td>
                      <Table.Td>
                        {p.tracking ? (
                          <Badge size="sm" variant="light" color="violet">
                            {t('params.tracking')}
                          </Badge>
                        ) : null}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
          ) : (
            <Text size="sm" c="dimmed">
              {t('params.none')}
            </Text>
          )}
        </Stack>
      </Card>
      {result.token ? <TokenCard token={result.token} kind={result.kind} /> : null}
      {result.bid ? <BidCard bid={result.bid} /> : null}
    </Stack>
  );
}

/** Admin: decode-URL (SPEC.md sections 2 and 5): what our click and beacon URLs, or any URL, say. */
export function DecodeUrlPage() {
  const { t } = useTranslation('decode');
  const decode = useDecodeUrl();
  const form = useForm<{ url: string }>({
    resolver: zodResolver(decodeUrlRequest, { error: validationErrorMap }),
    defaultValues: { url: '' },
  });
  const onSubmit = form.handleSubmit(async ({ url }) => {
    try {
      await decode.mutateAsync(url);
    } catch (error) {
      setFieldErrors(error, form.setError, ['url']);
    }
  });
  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Card withBorder padding="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <FormTextarea
              control={form.control}
              name="url"
              label={t('url')}
              placeholder="https://…/click/…"
              rows={3}
              required
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={decode.isPending}
                leftSection={<IconSearch size={16} aria-hidden />}
              >
                {t('decode')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {decode.data ? <Result result={decode.data} /> : null}
    </Stack>
  );
}
