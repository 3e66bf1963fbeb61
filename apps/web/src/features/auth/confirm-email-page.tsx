import { confirmEmailResponse } from '@adp/contract';
import { Alert, Anchor, Group, Loader, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError, apiRequest } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { AuthCard } from './components/auth-card.tsx';

/**
 * The page the e-mail change link opens (`/confirm-email?token=`): it confirms at once. The link works
 * signed in or not (it may be opened on another device), so the request carries no session.
 */
export function ConfirmEmailPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const signedIn = Boolean(useAuth().userId);
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: (value: string) =>
      apiRequest('/auth/confirm-email', {
        method: 'POST',
        json: { token: value },
        schema: confirmEmailResponse,
        auth: false,
      }),
    // the signed-in account shows its new address everywhere
    onSuccess: () => queryClient.invalidateQueries(),
    // the page itself says why it failed: no toast repeating it
    meta: { silent: true },
  });
  // once per page: the token works once (a second call would report it as spent)
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || token.length < 10) return;
    sent.current = true;
    confirm.mutate(token);
  }, [token, confirm]);

  const next = signedIn ? (
    <Anchor component={Link} to="/">
      {t('confirm_email.to_dashboard')}
    </Anchor>
  ) : (
    <Anchor component={Link} to="/login">
      {t('confirm_email.to_login')}
    </Anchor>
  );

  let body: ReactNode;
  if (token.length < 10 || confirm.isError) {
    const error = confirm.error;
    const detail =
      error instanceof ApiError
        ? (error.fieldErrors[0]?.detail ?? error.message)
        : t('errors:invalid_email_change_token');
    body = (
      <Alert color="red" title={t('confirm_email.failed_title')} role="alert">
        <Text fz="sm">{token.length < 10 ? t('errors:invalid_email_change_token') : detail}</Text>
        {next}
      </Alert>
    );
  } else if (confirm.isSuccess) {
    body = (
      <Alert
        color="teal"
        icon={<IconCircleCheck aria-hidden />}
        title={t('confirm_email.done_title')}
        role="status"
      >
        <Text fz="sm">{t('confirm_email.done', { email: confirm.data.email })}</Text>
        {next}
      </Alert>
    );
  } else {
    body = (
      <Group gap="sm" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t('confirm_email.pending')}</Text>
      </Group>
    );
  }
  return <AuthCard title={t('confirm_email.title')}>{body}</AuthCard>;
}
