import '@mantine/core/styles/Alert.layer.css';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { notifyError } from '../../lib/notify.ts';
import { NoRightsError, useLogin } from './api/session.ts';
import { AuthCard } from './components/auth-card.tsx';
import {
  AuthPasswordInput,
  AuthTextInput,
  checkEmail,
  checkRequired,
  compact,
  useAuthForm,
} from './components/auth-fields.tsx';
import { safeRedirect } from './safe-redirect.ts';

type LoginForm = { username: string; password: string };

// A light check (the e-mail shape, both filled in): the login page loads no schema library.
const checkLogin = (values: LoginForm) =>
  compact<LoginForm>({ username: checkEmail(values.username), password: checkRequired(values.password) });

export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginMutation = useLogin();
  const [noRights, setNoRights] = useState(false);
  const form = useAuthForm<LoginForm>({ username: '', password: '' }, checkLogin);
  const redirect = safeRedirect(params.get('redirect'));

  const onSubmit = form.onSubmit(async (values) => {
    setNoRights(false);
    try {
      const me = await loginMutation.mutateAsync({
        username: values.username.trim().toLowerCase(),
        password: values.password,
      });
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
          <AuthTextInput
            form={form}
            name="username"
            type="email"
            autoComplete="username"
            placeholder="name@example.com"
            required
          />
          <AuthPasswordInput form={form} name="password" autoComplete="current-password" required />
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
          inherit
          underline="always"
          component={Link}
          to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}
        >
          {t('login.create_account')}
        </Anchor>
      </Text>
    </AuthCard>
  );
}
