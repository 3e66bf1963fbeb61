import '@mantine/core/styles/Alert.layer.css';
import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { IconArrowLeft, IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useForgotPassword } from './api/session.ts';
import { AuthCard } from './components/auth-card.tsx';
import { AuthTextInput, checkEmail, compact, useAuthForm } from './components/auth-fields.tsx';

type ForgotForm = { email: string };

// The contract's forgotPasswordInput is an e-mail alone; the light check mirrors it.
const checkForgot = (values: ForgotForm) => compact<ForgotForm>({ email: checkEmail(values.email) });

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const forgot = useForgotPassword();
  const form = useAuthForm<ForgotForm>({ email: '' }, checkForgot);
  const onSubmit = form.onSubmit((values) => forgot.mutate({ email: values.email.trim().toLowerCase() }));

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {forgot.isSuccess ? (
        <Alert color="teal" icon={<IconMailCheck aria-hidden />} title={t('forgot.sent_title')} role="status">
          {t('forgot.sent')}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <AuthTextInput form={form} name="email" type="email" autoComplete="email" required />
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
