import { type Currency, currencyUpdate } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormNumberInput, FormTextInput } from '../../../components/form-fields.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { useUpdateCurrency } from '../api/currencies-queries.ts';

const editFields = currencyUpdate.required({ name: true, symbol: true });
type EditForm = { name: string; symbol: string; rate?: number | undefined };

export function CurrencyEditDialog({ currency, onClose }: { currency: Currency; onClose: () => void }) {
  const { t } = useTranslation('currencies');
  const update = useUpdateCurrency();
  const platform = currency.code === 'USD';
  const form = useForm<EditForm>({
    resolver: zodResolver(editFields, { error: validationErrorMap }),
    defaultValues: { name: currency.name, symbol: currency.symbol, rate: currency.rate ?? undefined },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { rate, ...rest } = values;
      await update.mutateAsync({
        id: currency._id,
        update: platform || rate === undefined || rate === currency.rate ? rest : { ...rest, rate },
      });
      notifySuccess(t('saved', { code: currency.code }));
      onClose();
    } catch (error) {
      setFieldErrors(error, form.setError, ['name', 'symbol', 'rate']);
    }
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('edit_title', { code: currency.code })}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <FormTextInput
            control={form.control}
            name="name"
            label={t('resources.currencies.fields.name')}
            required
          />
          <FormTextInput
            control={form.control}
            name="symbol"
            label={t('resources.currencies.fields.symbol')}
            required
          />
          <FormNumberInput
            control={form.control}
            name="rate"
            label={t('resources.currencies.fields.rate')}
            description={platform ? t('platform_rate') : t('rate_hint', { code: currency.code })}
            decimalScale={6}
            min={0}
            disabled={platform}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {t('common:actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
