import { withdrawalInput, withdrawalMethods } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormNumberInput, FormSelect, FormTextarea } from '../../../components/form-fields.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { formatMoney, moneyAffix } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { issueMessage, validationErrorMap } from '../../../lib/validation.ts';
import { useRequestWithdrawal, useSettings } from '../api/withdrawals-queries.ts';

type WithdrawalForm = z.input<typeof withdrawalInput>;

/** A publisher asks for a payout; the amount is reserved on the balance until an admin decides. */
export function WithdrawalForm({ userId, balance }: { userId: string; balance: number | undefined }) {
  const { t } = useTranslation('billing');
  const settings = useSettings();
  const request = useRequestWithdrawal(userId);
  const minPayout = settings.data?.min_payout ?? 0;
  // the most one can ask for: the balance down to the cent the field takes (38.00 shown for 37.99941 could
  // not be asked for)
  const available = balance === undefined ? undefined : Math.floor(balance * 100 + 1e-6) / 100;
  const belowMinimum = available !== undefined && settings.data !== undefined && available < minPayout;
  const schema = withdrawalInput
    .refine((v) => v.sum >= minPayout, {
      path: ['sum'],
      message: issueMessage('greater_than_or_equal', { min: formatMoney(minPayout) }),
    })
    .refine((v) => available === undefined || v.sum <= available, {
      path: ['sum'],
      message: issueMessage('less_than_or_equal', { max: formatMoney(available ?? 0) }),
    });
  const form = useForm<WithdrawalForm, unknown, z.output<typeof withdrawalInput>>({
    resolver: zodResolver(schema, { error: validationErrorMap }),
    defaultValues: { sum: undefined, method: 'bank_transfer', details: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await request.mutateAsync(values);
      notifySuccess(t('withdrawals.requested', { sum: formatMoney(values.sum) }));
      form.reset();
    } catch (error) {
      setFieldErrors(error, form.setError, ['sum', 'method', 'details']);
    }
  });
  return (
    <Card padding="lg" radius="md">
      <form onSubmit={onSubmit} noValidate aria-labelledby="withdrawal-form-title">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="withdrawal-form-title">
            {t('withdrawals.request_title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('withdrawals.min_payout_note', { min: formatMoney(minPayout) })}
            {available !== undefined
              ? ` ${t('withdrawals.available', { amount: formatMoney(available) })}`
              : ''}
          </Text>
          {belowMinimum ? (
            <Text fz="sm" role="status">
              {t('withdrawals.below_minimum')}
            </Text>
          ) : null}
          <FormNumberInput
            control={form.control}
            name="sum"
            label={t('fields:sum')}
            {...moneyAffix()}
            decimalScale={2}
            min={0}
            required
          />
          <FormSelect
            control={form.control}
            name="method"
            label={t('fields:method')}
            data={withdrawalMethods.map((method) => ({
              value: method,
              label: t(`withdrawals.methods.${method}`),
            }))}
            allowDeselect={false}
          />
          <FormTextarea
            control={form.control}
            name="details"
            label={t('fields:details')}
            description={t('withdrawals.details_hint')}
            rows={2}
            required
          />
          <Button type="submit" loading={request.isPending} disabled={belowMinimum}>
            {t('withdrawals.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
