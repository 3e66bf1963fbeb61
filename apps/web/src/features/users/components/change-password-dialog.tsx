import { changePasswordInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormPasswordInput } from '../../../components/form-fields.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { issueMessage, validationErrorMap } from '../../../lib/validation.ts';
import { useChangePassword } from '../api/users-queries.ts';

const passwordFields = z
  .object({
    current_password: z.string().max(128),
    password: changePasswordInput.shape.password,
    password_confirmation: z.string(),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: issueMessage('confirmation', { other: 'password' }),
  });
type PasswordForm = z.infer<typeof passwordFields>;

/**
 * Changes a password. The current one is asked unless an admin changes another user's password
 * (the server decides the same way).
 */
export function ChangePasswordDialog({
  userId,
  needsCurrent,
  opened,
  onClose,
}: {
  userId: string;
  needsCurrent: boolean;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('users');
  const change = useChangePassword(userId);
  const schema = needsCurrent
    ? passwordFields.refine((v) => v.current_password.length > 0, {
        path: ['current_password'],
        message: issueMessage('required'),
      })
    : passwordFields;
  const form = useForm<PasswordForm>({
    resolver: zodResolver(schema, { error: validationErrorMap }),
    defaultValues: { current_password: '', password: '', password_confirmation: '' },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await change.mutateAsync({
        password: values.password,
        ...(needsCurrent ? { current_password: values.current_password } : {}),
      });
      notifySuccess(t('password.done'));
      close();
    } catch (error) {
      setFieldErrors(error, form.setError, ['current_password', 'password']);
    }
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('password.title')}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {needsCurrent ? (
            <FormPasswordInput
              control={form.control}
              name="current_password"
              autoComplete="current-password"
              required
            />
          ) : null}
          <FormPasswordInput
            control={form.control}
            name="password"
            label={t('password.new')}
            autoComplete="new-password"
            required
          />
          <FormPasswordInput
            control={form.control}
            name="password_confirmation"
            autoComplete="new-password"
            required
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={change.isPending}>
              {t('password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
