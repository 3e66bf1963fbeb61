import { forgotPasswordInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconArrowLeft, IconMailCheck } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { FormTextInput } from '../../components/form-fields.tsx';
import { validationErrorMap } from '../../lib/validation.ts';
import { useForgotPassword } from './api/auth-api.ts';
import { AuthCard } from './components/auth-card.tsx';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const forgot = useForgotPassword();
  const form = useForm<z.input<typeof forgotPasswordInput>, unknown, z.output<typeof forgotPasswordInput>>({
    resolver: zodResolver(forgotPasswordInput, { error: validationErrorMap }),
    defaultValues: { email: '' },
  });
  const onSubmit = form.handleSubmit((values) => forgot.mutate(values));

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {forgot.isSuccess ? (
        <Alert color="teal" icon={<IconMailCheck aria-hidden />} title={t('forgot.sent_title')} role="status">
          {t('forgot.sent')}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <FormTextInput control={form.control} name="email" type="email" autoComplete="email" required />
            <Button type="submit" fullWidth loading={forgot.isPending}>
              {t('forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" fz="sm" ta="center">
        <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} />{' '}
        {t('forgot.back_to_login')}
      </Anchor>
    </AuthCard>
  );
}
