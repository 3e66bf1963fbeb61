import type { ParserConvertResult } from '@adp/contract';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendarCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useParserConvert } from '../api/sites-queries.ts';

/**
 * Under the date parse string: a date as the feed writes it, and a button that converts the string (PHP
 * `d.m.Y H:i` or strftime `%d.%m.%Y` as other systems write it) into the parser's tokens, puts it in the
 * field and says which date the sample reads as.
 */
export function DateFormatCheck({
  value,
  onConverted,
}: {
  value: () => string;
  onConverted: (format: string) => void;
}) {
  const { t } = useTranslation('sites');
  const convert = useParserConvert();
  const [sample, setSample] = useState('');
  const [result, setResult] = useState<ParserConvertResult | null>(null);
  const [error, setError] = useState('');

  const run = async () => {
    setResult(null);
    setError('');
    const format = value().trim();
    if (!format) {
      setError(t('date_check.empty'));
      return;
    }
    try {
      const answer = await convert.mutateAsync({ date_parse_string: format, sample });
      if (answer.date_parse_string !== format) onConverted(answer.date_parse_string);
      setResult(answer);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422 && err.message) setError(err.message);
      else notifyError(err);
    }
  };

  return (
    <Stack gap={4}>
      {/* on a phone the button goes under the field: side by side, a long label squeezed the sample */}
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          size="xs"
          style={{ flex: '1 1 220px' }}
          label={t('date_check.sample')}
          placeholder="05.11.2026 14:30"
          value={sample}
          onChange={(e) => setSample(e.currentTarget.value)}
        />
        <Button
          size="xs"
          variant="light"
          leftSection={<IconCalendarCheck size={14} aria-hidden />}
          onClick={run}
          loading={convert.isPending}
        >
          {t('date_check.button')}
        </Button>
      </Group>
      {error ? (
        <Text fz="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      {result ? (
        <Text fz="xs" c={result.date || !sample ? 'teal' : 'orange'} role="status">
          {[
            result.converted_from === 'tokens'
              ? null
              : t('date_check.converted', {
                  from: t(`date_check.from_${result.converted_from}`),
                  format: result.date_parse_string,
                }),
            sample
              ? result.date
                ? // the parser reads a feed's date as written (no timezone): shown so, not in the reader's zone
                  t('date_check.reads_as', { date: result.date.slice(0, 19).replace('T', ' ') })
                : t('date_check.no_match')
              : null,
          ]
            .filter(Boolean)
            .join(' ') || t('date_check.valid')}
        </Text>
      ) : null}
    </Stack>
  );
}
