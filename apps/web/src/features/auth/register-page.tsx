import { registerInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { FormCheckbox, FormPasswordInput, FormTextInput } from '../../components/form-fields.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { notifyError } from '../../lib/notify.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import { useRegister } from './api/auth-api.ts';
import { AuthCard } from './components/auth-card.tsx';
import { safeRedirect } from './safe-redirect.ts';

// The checkbox holds a boolean; the contract's rule (must be true) still decides.
const registerFields = registerInput
  .pick({ name: true, email: true, password: true, phone: true })
  .extend({ privacy_policy_agreed: z.boolean().pipe(registerInput.shape.privacy_policy_agreed) });

type RegisterForm = z.input<typeof registerFields>;

export function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const registerMutation = useRegister();
  const form = useForm<RegisterForm, unknown, z.output<typeof registerFields>>({
    resolver: zodResolver(registerFields, { error: validationErrorMap }),
    defaultValues: { name: '', email: '', phone: '', password: '', privacy_policy_agreed: false },
  });
  const redirect = safeRedirect(params.get('redirect'));

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const me = await registerMutation.mutateAsync({
        ...values,
        phone: values.phone ? values.phone : undefined,
        locale: currentLocale(),
      });
      navigate(redirect ?? `/users/${me.account._id}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const entry of error.fieldErrors) {
          if (entry.field in values)
            form.setError(entry.field as keyof RegisterForm, { message: entry.detail });
        }
      }
      notifyError(error);
    }
  });

  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <FormTextInput control={form.control} name="name" autoComplete="name" required />
          <FormTextInput control={form.control} name="email" type="email" autoComplete="email" required />
          <FormTextInput
            control={form.control}
            name="phone"
            type="tel"
            autoComplete="tel"
            placeholder="+1 555 0100"
          />
          <FormPasswordInput
            control={form.control}
            name="password"
            autoComplete="new-password"
            description={t('register.password_hint')}
            required
          />
          <FormCheckbox
            control={form.control}
            name="privacy_policy_agreed"
            label={t('register.privacy_agree')}
          />
          <Button type="submit" fullWidth loading={registerMutation.isPending}>
            {t('register.submit')}
          </Button>
        </Stack>
      </form>
      <Text ta="center" fz="sm">
        {t('register.have_account')}{' '}
        <Anchor component={Link} to="/login">
          {t('register.sign_in')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
