import { type paymentProvider, topupInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Radio, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconLock } from '@tabler/icons-react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { FormNumberInput } from '../../components/form-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { setFieldErrors } from '../../lib/form-errors.ts';
import { formatMoney, moneyAffix } from '../../lib/format.ts';
import { useHidesOwnBalance } from '../../lib/me-query.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import { useAccount, useProviders, useStartTopup } from './api/payments-queries.ts';
import { goToPaymentPage } from './components/redirect.ts';

type TopupForm = z.input<typeof topupInput>;
const presets = [10, 50, 100, 500];

/** The user enters an amount (and a provider when there is a choice) and goes to the payment page. */
export function TopupPage() {
  const { t } = useTranslation('billing');
  const { userId = '' } = useParams();
  const user = useAccount(userId);
  const hideBalance = useHidesOwnBalance(userId);
  const providers = useProviders();
  const start = useStartTopup(userId);
  const available = providers.data?.providers ?? [];
  // no provider configured: say so and whom to ask instead of a button that can only fail
  const noProvider = providers.isSuccess && available.length === 0;
  const form = useForm<TopupForm, unknown, z.output<typeof topupInput>>({
    resolver: zodResolver(topupInput, { error: validationErrorMap }),
    defaultValues: { sum: undefined, provider: undefined },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const provider = values.provider ?? (available.length === 1 ? available[0] : undefined);
      const started = await start.mutateAsync({ sum: values.sum, ...(provider ? { provider } : {}) });
      goToPaymentPage(started.redirect_url);
    } catch (error) {
      setFieldErrors(error, form.setError, ['sum', 'provider']);
    }
  });

  return (
    <Stack gap="md" maw={560}>
      <PageHeader
        title={t('topup.title')}
        subtitle={user.data?.name}
        back={{ to: `/users/${userId}`, label: t('back_to_account') }}
      />
      {noProvider ? (
        <Alert
          color="yellow"
          title={t('topup.none_title')}
          icon={<IconAlertTriangle size={18} aria-hidden />}
        >
          {t('topup.none_text')}
        </Alert>
      ) : (
        <Card padding="lg" radius="md">
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              {user.data && !hideBalance ? (
                <Text c="dimmed" fz="sm">
                  {t('topup.current_balance', { amount: formatMoney(user.data.balance, 'USD') })}
                </Text>
              ) : null}
              <FormNumberInput
                control={form.control}
                name="sum"
                label={t('topup.amount')}
                {...moneyAffix()}
                decimalScale={2}
                min={1}
                max={100000}
                description={t('topup.amount_hint', { min: formatMoney(1), max: formatMoney(100000) })}
                required
              />
              <Group gap="xs">
                {presets.map((preset) => (
                  <Button
                    key={preset}
                    size="xs"
                    variant="light"
                    onClick={() => form.setValue('sum', preset, { shouldValidate: true })}
                  >
                    {formatMoney(preset)}
                  </Button>
                ))}
              </Group>
              {available.length > 1 ? (
                <Controller
                  control={form.control}
                  name="provider"
                  render={({ field }) => (
                    <Radio.Group
                      label={t('topup.provider')}
                      value={field.value ?? ''}
                      onChange={(value) => field.onChange(value as z.infer<typeof paymentProvider>)}
                    >
                      <Stack gap="xs" mt="xs">
                        {available.map((name) => (
                          <Radio key={name} value={name} label={t(`topup.providers.${name}`)} />
                        ))}
                      </Stack>
                    </Radio.Group>
                  )}
                />
              ) : null}
              {available.length === 1 && available[0] === 'sandbox' ? (
                <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />}>
                  {t('topup.sandbox_note')}
                </Alert>
              ) : null}
              <Button
                type="submit"
                loading={start.isPending}
                leftSection={<IconLock size={16} aria-hidden />}
              >
                {t('topup.submit')}
              </Button>
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}
