import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { notifyError } from '../../lib/notify.ts';
import { useRegister } from './api/session.ts';
import { AuthCard } from './components/auth-card.tsx';
import { AuthCheckbox } from './components/auth-checkbox.tsx';
import { AuthPasswordInput, AuthTextInput, useAuthForm } from './components/auth-fields.tsx';
import type { RegisterForm } from './register-check.ts';
import { safeRedirect } from './safe-redirect.ts';

// The contract's schema arrives with the first submit, not with the page.
const checkRegister = async (values: RegisterForm) =>
  (await import('./register-check.ts')).checkRegister(values);

export function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const registerMutation = useRegister();
  const form = useAuthForm<Required<RegisterForm>>(
    { name: '', email: '', phone: '', password: '', privacy_policy_agreed: false },
    checkRegister,
  );
  const redirect = safeRedirect(params.get('redirect'));

  const onSubmit = form.onSubmit(async (values) => {
    try {
      const me = await registerMutation.mutateAsync({
        name: values.name.trim(),
        email: values.email.trim().toLowerCase(),
        password: values.password,
        phone: values.phone.trim() ? values.phone.trim() : undefined,
        privacy_policy_agreed: true,
        locale: currentLocale(),
      });
      navigate(redirect ?? `/users/${me.account._id}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const entry of error.fieldErrors) {
          if (entry.field in values) form.setError(entry.field as keyof RegisterForm, entry.detail);
        }
      }
      notifyError(error);
    }
  });

  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <AuthTextInput form={form} name="name" autoComplete="name" required />
          <AuthTextInput form={form} name="email" type="email" autoComplete="email" required />
          <AuthTextInput form={form} name="phone" type="tel" autoComplete="tel" placeholder="+1 555 0100" />
          <AuthPasswordInput
            form={form}
            name="password"
            autoComplete="new-password"
            description={t('register.password_hint')}
            required
          />
          <AuthCheckbox form={form} name="privacy_policy_agreed" label={t('register.privacy_agree')} />
          <Button type="submit" fullWidth loading={registerMutation.isPending}>
            {t('register.submit')}
          </Button>
        </Stack>
      </form>
      <Text ta="center" fz="sm">
        {t('register.have_account')}{' '}
        <Anchor inherit underline="always" component={Link} to="/login">
          {t('register.sign_in')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
