import { resetPasswordInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Box, Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconLockPassword } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FormPasswordInput } from '../../components/form-fields.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { notifyError } from '../../lib/notify.ts';
import { issueMessage, validationErrorMap } from '../../lib/validation.ts';
import { useResetPassword } from './api/session.ts';
import { AuthCard } from './components/auth-card.tsx';

const resetForm = resetPasswordInput
  .pick({ password: true })
  .extend({ password_confirmation: resetPasswordInput.shape.password })
  .refine((values) => values.password === values.password_confirmation, {
    path: ['password_confirmation'],
    message: issueMessage('confirmation', { other: 'password' }),
  });
type ResetForm = z.input<typeof resetForm>;

function ResetPasswordForm() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const form = useForm<ResetForm, unknown, z.output<typeof resetForm>>({
    resolver: zodResolver(resetForm, { error: validationErrorMap }),
    defaultValues: { password: '', password_confirmation: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await reset.mutateAsync({ token, password: values.password });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'invalid_reset_token')) notifyError(error);
    }
  });

  if (!token || token.length < 10) {
    return (
      <Alert color="red" title={t('reset.invalid_title')} role="alert">
        {t('errors:invalid_reset_token')}
      </Alert>
    );
  }
  if (reset.isSuccess) {
    return (
      <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title={t('reset.done_title')} role="status">
        {t('reset.done')}{' '}
        <Anchor component={Link} to="/login">
          {t('reset.sign_in')}
        </Anchor>
      </Alert>
    );
  }
  const resetError = reset.error;
  const invalidToken = resetError instanceof ApiError && resetError.code === 'invalid_reset_token';
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {invalidToken ? (
          <Alert color="red" title={t('reset.invalid_title')} role="alert">
            {resetError.message || t('errors:invalid_reset_token')}{' '}
            <Anchor component={Link} to="/forgot-password">
              {t('reset.request_new')}
            </Anchor>
          </Alert>
        ) : null}
        <FormPasswordInput
          control={form.control}
          name="password"
          label={t('reset.new_password')}
          autoComplete="new-password"
          description={t('register.password_hint')}
          required
        />
        <FormPasswordInput
          control={form.control}
          name="password_confirmation"
          autoComplete="new-password"
          required
        />
        <Button type="submit" fullWidth loading={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}

function BackToLogin() {
  const { t } = useTranslation('auth');
  return (
    <Anchor component={Link} to="/login" fz="sm" ta="center">
      <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle' }} /> {t('forgot.back_to_login')}
    </Anchor>
  );
}

/** Variant 1: the compact card. */
export function ResetPasswordV1Page() {
  const { t } = useTranslation('auth');
  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <ResetPasswordForm />
      <BackToLogin />
    </AuthCard>
  );
}

/** Variant 2: a split card with an illustration side, the link the reset e-mail points to. */
export function ResetPasswordV2Page() {
  const { t } = useTranslation('auth');
  return (
    <Paper radius="lg" w="100%" maw={920} mx="auto" style={{ overflow: 'hidden' }} p={0}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0}>
        <Box
          visibleFrom="md"
          p="xl"
          style={{
            background:
              'linear-gradient(135deg, var(--mantine-color-indigo-6), var(--mantine-color-violet-6))',
            color: 'white',
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'center',
            gap: 16,
          }}
        >
          <IconLockPassword size={64} aria-hidden />
          <Title order={2} c="white">
            {t('reset.side_title')}
          </Title>
          <Text c="white" opacity={0.9}>
            {t('reset.side_text')}
          </Text>
        </Box>
        <Stack p={{ base: 'lg', sm: 'xl' }} gap="md">
          <div>
            <Title order={1} fz={{ base: 22, sm: 26 }}>
              {t('reset.title')}
            </Title>
            <Text c="dimmed" fz="sm" mt={4}>
              {t('reset.subtitle')}
            </Text>
          </div>
          <ResetPasswordForm />
          <BackToLogin />
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
