import { paymentInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormNumberInput, FormSelect, FormTextInput } from '../../../components/form-fields.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { usePayUser } from '../api/users-queries.ts';

type PayForm = z.input<typeof paymentInput>;
const payTypes = ['admin_payment', 'adjustment', 'refund'] as const;

/** Admin: pay a user or adjust the balance (POST /users/:id/payments {payment}). */
export function PayUserDialog({
  userId,
  userName,
  opened,
  onClose,
}: {
  userId: string;
  userName: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('users');
  const pay = usePayUser(userId);
  const form = useForm<PayForm, unknown, z.output<typeof paymentInput>>({
    resolver: zodResolver(paymentInput, { error: validationErrorMap }),
    defaultValues: { sum: undefined, type: 'admin_payment', source: '' },
  });

  const close = () => {
    form.reset();
    onClose();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const entry = await pay.mutateAsync(values);
      notifySuccess(t('pay.done', { sum: formatMoney(entry.sum), name: userName }));
      close();
    } catch (error) {
      setFieldErrors(error, form.setError, ['sum', 'type', 'source']);
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('pay.title', { name: userName })}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <FormNumberInput
            control={form.control}
            name="sum"
            label={t('fields:sum')}
            decimalScale={6}
            description={t('pay.sum_hint')}
            required
            data-autofocus
          />
          <FormSelect
            control={form.control}
            name="type"
            label={t('fields:type')}
            data={payTypes.map((type) => ({ value: type, label: t(`ledger.types.${type}`) }))}
            allowDeselect={false}
          />
          <FormTextInput control={form.control} name="source" label={t('fields:source')} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={pay.isPending}>
              {t('pay.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
