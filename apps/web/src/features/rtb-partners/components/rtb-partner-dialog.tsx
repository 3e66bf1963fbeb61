import { type RtbPartner, rtbPartnerInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormNumberInput, FormSelect, FormTextInput } from '../../../components/form-fields.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { useSaveRtbPartner } from '../api/rtb-partners-queries.ts';

type PartnerForm = {
  name: string;
  status: 'active' | 'inactive';
  max_request_ms: number;
  daily_limit: number | null;
  currency: string;
};
const fields = ['name', 'status', 'max_request_ms', 'daily_limit', 'currency'] as const;

/** Creates a partner (no `partner`) or edits one: name, status, max request time, daily limit, currency. */
export function RtbPartnerDialog({ partner, onClose }: { partner: RtbPartner | null; onClose: () => void }) {
  const { t } = useTranslation('rtbpartners');
  const save = useSaveRtbPartner();
  const form = useForm<PartnerForm>({
    resolver: zodResolver(rtbPartnerInput, { error: validationErrorMap }) as never,
    defaultValues: partner
      ? {
          name: partner.name,
          status: partner.status,
          max_request_ms: partner.max_request_ms,
          daily_limit: partner.daily_limit,
          currency: partner.currency,
        }
      : { name: '', status: 'active', max_request_ms: 200, daily_limit: null, currency: 'USD' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({
        ...(partner ? { id: partner._id } : {}),
        values: { ...values, daily_limit: values.daily_limit ?? null },
      });
      notifySuccess(t(partner ? 'saved' : 'created', { name: saved.name }));
      onClose();
    } catch (error) {
      setFieldErrors(error, form.setError, [...fields]);
    }
  });
  const title = partner ? t('edit_title', { name: partner.name }) : t('create_title');
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <FormTextInput control={form.control} name="name" label={t('fields.name')} required />
          <FormSelect
            control={form.control}
            name="status"
            label={t('fields.status')}
            data={[
              { value: 'active', label: t('status.active') },
              { value: 'inactive', label: t('status.inactive') },
            ]}
            allowDeselect={false}
          />
          <FormNumberInput
            control={form.control}
            name="max_request_ms"
            label={t('fields.max_request_ms')}
            description={t('hints.max_request_ms')}
            min={10}
            max={5000}
            allowDecimal={false}
            required
          />
          <FormNumberInput
            control={form.control}
            name="daily_limit"
            label={t('fields.daily_limit')}
            description={t('hints.daily_limit')}
            min={0}
            decimalScale={2}
          />
          <FormTextInput
            control={form.control}
            name="currency"
            label={t('fields.currency')}
            description={t('hints.currency')}
            maxLength={3}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {partner ? t('common:actions.save') : t('create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
