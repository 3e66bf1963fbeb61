import { email } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { FormPasswordInput, FormTextInput } from '../../components/form-fields.tsx';
import { notifyError } from '../../lib/notify.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import { NoRightsError, useLogin } from './api/auth-api.ts';
import { AuthCard } from './components/auth-card.tsx';
import { safeRedirect } from './safe-redirect.ts';

const loginForm = z.object({ username: email, password: z.string().min(1) });
type LoginForm = z.input<typeof loginForm>;

export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginMutation = useLogin();
  const [noRights, setNoRights] = useState(false);
  const form = useForm<LoginForm, unknown, z.output<typeof loginForm>>({
    resolver: zodResolver(loginForm, { error: validationErrorMap }),
    defaultValues: { username: '', password: '' },
  });
  const redirect = safeRedirect(params.get('redirect'));

  const onSubmit = form.handleSubmit(async (values) => {
    setNoRights(false);
    try {
      const me = await loginMutation.mutateAsync(values);
      navigate(redirect ?? `/users/${me.account._id}`, { replace: true });
    } catch (error) {
      if (error instanceof NoRightsError) setNoRights(true);
      else notifyError(error);
    }
  });

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      {noRights ? (
        <Alert
          color="orange"
          icon={<IconAlertCircle aria-hidden />}
          title={t('login.no_rights_title')}
          role="alert"
        >
          {t('errors:no_rights')}
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <FormTextInput
            control={form.control}
            name="username"
            type="email"
            autoComplete="username"
            placeholder="name@example.com"
            required
          />
          <FormPasswordInput
            control={form.control}
            name="password"
            autoComplete="current-password"
            required
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" fz="sm">
              {t('login.forgot')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={loginMutation.isPending}>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      <Text ta="center" fz="sm">
        {t('login.no_account')}{' '}
        <Anchor
          component={Link}
          to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}
        >
          {t('login.create_account')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
