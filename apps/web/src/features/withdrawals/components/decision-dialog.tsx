import { type Withdrawal, withdrawalApprove, withdrawalReject } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormTextarea, FormTextInput } from '../../../components/form-fields.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { useDecideWithdrawal } from '../api/withdrawals-queries.ts';

const approveFields = z.object({ reference: withdrawalApprove.shape.reference });
const rejectFields = z.object({ reason: withdrawalReject.shape.reason });
type DecisionForm = { reference?: string; reason?: string };

/** Approve (marks it paid, with the payment's reference) or reject (releases the reservation, with a reason). */
export function DecisionDialog({
  withdrawal,
  action,
  onClose,
}: {
  withdrawal: Withdrawal | null;
  action: 'approve' | 'reject';
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const decide = useDecideWithdrawal();
  // only the field of this decision is checked (and sent)
  const schema = action === 'approve' ? approveFields : rejectFields;
  const form = useForm<DecisionForm>({
    resolver: zodResolver(schema as unknown as z.ZodType<DecisionForm, DecisionForm>, {
      error: validationErrorMap,
    }),
    defaultValues: action === 'approve' ? { reference: '' } : { reason: '' },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    if (!withdrawal) return;
    try {
      if (action === 'approve')
        await decide.mutateAsync({ id: withdrawal._id, action, reference: values.reference ?? '' });
      else await decide.mutateAsync({ id: withdrawal._id, action, reason: values.reason ?? '' });
      notifySuccess(t(action === 'approve' ? 'withdrawals.approved' : 'withdrawals.rejected'));
      close();
    } catch (error) {
      setFieldErrors(error, form.setError, ['reference', 'reason']);
    }
  });
  return (
    <Modal
      opened={withdrawal !== null}
      onClose={close}
      title={t(action === 'approve' ? 'withdrawals.approve_title' : 'withdrawals.reject_title')}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      {withdrawal ? (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Text fz="sm">
              {t('withdrawals.decision_summary', {
                name: withdrawal.user_name,
                sum: formatMoney(withdrawal.sum),
                method: t(`withdrawals.methods.${withdrawal.method}`),
              })}
            </Text>
            <Text fz="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {withdrawal.details}
            </Text>
            {action === 'approve' ? (
              <FormTextInput
                control={form.control}
                name="reference"
                label={t('fields:reference')}
                description={t('withdrawals.reference_hint')}
                required
                data-autofocus
              />
            ) : (
              <FormTextarea
                control={form.control}
                name="reason"
                label={t('fields:reason')}
                rows={2}
                required
                data-autofocus
              />
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={close}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit" color={action === 'approve' ? 'teal' : 'red'} loading={decide.isPending}>
                {t(action === 'approve' ? 'withdrawals.approve' : 'withdrawals.reject')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
