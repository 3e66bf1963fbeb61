import type { parserPreview } from '@adp/contract';
import { Alert, Anchor, Badge, Group, Image, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { formatDateTime } from '../../../lib/format.ts';

type Preview = z.infer<typeof parserPreview>;

const srOnly = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
} as const;

/** What an RSS or parser test found: the materials it would store and what it skipped, and why. */
export function ParserPreviewResult({ result }: { result: Preview }) {
  const { t } = useTranslation('sites');
  return (
    <Stack gap="sm" data-testid="parser-preview">
      <Group gap="xs">
        <Badge variant="light">{t(`parser_test.source_${result.source}`)}</Badge>
        <Text fz="sm">{t('parser_test.found', { count: result.items.length })}</Text>
        {result.skipped.length > 0 ? (
          <Text fz="sm" c="dimmed">
            {t('parser_test.skipped_count', { count: result.skipped.length })}
          </Text>
        ) : null}
      </Group>
      {result.items.length > 0 ? (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs">
            <caption style={srOnly}>{t('parser_test.items_caption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields:image')}</Table.Th>
                <Table.Th>{t('fields:title')}</Table.Th>
                <Table.Th>{t('materials.published')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.items.map((item) => (
                <Table.Tr key={item.url}>
                  <Table.Td w={72}>
                    {item.image ? (
                      <Image
                        src={item.image}
                        alt=""
                        w={56}
                        h={40}
                        radius="sm"
                        fit="cover"
                        fallbackSrc="data:image/svg+xml;utf8,<svg xmlns=%22http://www.w3.org/2000/svg%22 width=%2256%22 height=%2240%22><rect width=%2256%22 height=%2240%22 fill=%22%23dee2e6%22/></svg>"
                      />
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Anchor href={item.url} target="_blank" rel="noreferrer" fz="sm" fw={600}>
                      {item.title}
                    </Anchor>
                    {item.description ? (
                      <Text fz="xs" c="dimmed" lineClamp={2}>
                        {item.description}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(item.published_at)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {result.skipped.length > 0 ? (
        <Alert color="yellow" title={t('parser_test.skipped_title')}>
          <Stack gap={4} component="ul" style={{ margin: 0, paddingInlineStart: 16 }}>
            {result.skipped.map((entry) => (
              <Text
                component="li"
                key={`${entry.url}-${entry.reason}`}
                fz="sm"
                style={{ overflowWrap: 'anywhere' }}
              >
                {entry.url}: {t(`skip_reasons.${entry.reason}`, { defaultValue: entry.reason })}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
