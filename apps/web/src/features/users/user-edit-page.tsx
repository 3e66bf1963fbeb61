import { type Account, locales, userUpdate } from '@adp/contract';
import { localeNames } from '@adp/i18n';
import { subject } from '@casl/ability';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import {
  FormNumberInput,
  FormPasswordInput,
  FormSelect,
  FormTextarea,
  FormTextInput,
} from '../../components/form-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import { setFieldErrors } from '../../lib/form-errors.ts';
import { currencyName } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { issueMessage, validationErrorMap } from '../../lib/validation.ts';
import { useCurrencyOptions, useUpdateUser, useUser } from './api/users-queries.ts';
import { TimezoneSelect } from './components/timezone-select.tsx';

const editFields = userUpdate.required({
  name: true,
  email: true,
  phone: true,
  currency: true,
  locale: true,
});
type EditForm = z.input<typeof editFields>;
const fieldNames = [
  'name',
  'email',
  'phone',
  'currency',
  'locale',
  'timezone',
  'notes',
  'earn_percent',
  'current_password',
] as const;

function UserEditForm({ user }: { user: Account }) {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const ability = useAppAbility();
  const canUpdate = ability.can('update', subject('User', { ...user }));
  const isAdmin = ability.can('update', 'AccountAdmin');
  // one's own new e-mail needs the current password and waits for the link mailed to it
  const own = useAuth().userId === user._id;
  const currencies = useCurrencyOptions();
  const update = useUpdateUser(user._id);
  const form = useForm<EditForm, unknown, z.output<typeof editFields>>({
    resolver: zodResolver(editFields, { error: validationErrorMap }),
    defaultValues: {
      name: user.name,
      email: user.email,
      phone: user.phone,
      currency: user.currency,
      locale: user.locale,
      timezone: user.timezone ?? null,
      current_password: '',
      ...(isAdmin ? { notes: user.notes, earn_percent: user.earn_percent } : {}),
    },
  });
  const currencyData = (currencies.data?.items ?? []).map((c) => ({
    value: c.code,
    label: `${c.code} · ${currencyName(c.code, c.name)}`,
  }));
  if (!currencyData.some((c) => c.value === user.currency))
    currencyData.unshift({ value: user.currency, label: user.currency });

  const email = useWatch({ control: form.control, name: 'email' });
  const emailChanged = own && email.trim().toLowerCase() !== user.email.toLowerCase();

  const onSubmit = form.handleSubmit(async (values) => {
    const { notes, earn_percent, current_password, timezone, ...profile } = values;
    if (emailChanged && !current_password) {
      form.setError('current_password', { message: issueMessage('required') });
      return;
    }
    const body = {
      ...profile,
      ...(emailChanged ? { current_password } : {}),
      // sent when changed: null goes back to the browser's
      ...((timezone ?? null) !== (user.timezone ?? null) ? { timezone: timezone ?? null } : {}),
      ...(isAdmin ? { notes, earn_percent } : {}),
    };
    try {
      const saved = await update.mutateAsync(body);
      notifySuccess(
        emailChanged && saved.pending_email
          ? t('edit.email_confirmation_sent', { email: saved.pending_email })
          : t('edit.saved'),
      );
      navigate(`/users/${user._id}`);
    } catch (error) {
      setFieldErrors(error, form.setError, fieldNames);
    }
  });

  return (
    <Card padding="lg" radius="md">
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={!canUpdate} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="sm">
            {user.pending_email ? (
              <Alert color="yellow" title={t('edit.email_pending_title')} role="status">
                {t('edit.email_pending', { email: user.pending_email })}
              </Alert>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <FormTextInput control={form.control} name="name" autoComplete="name" required />
              <FormTextInput
                control={form.control}
                name="email"
                type="email"
                autoComplete="email"
                required
                // another user's address is the admins' to change (an agency's member's too)
                readOnly={!own && !isAdmin}
                description={!own && !isAdmin ? t('errors:email_change_not_allowed') : undefined}
              />
              {emailChanged ? (
                <FormPasswordInput
                  control={form.control}
                  name="current_password"
                  autoComplete="current-password"
                  description={t('edit.current_password_hint')}
                  required
                />
              ) : null}
              <FormTextInput control={form.control} name="phone" type="tel" autoComplete="tel" />
              <FormSelect
                control={form.control}
                name="currency"
                data={currencyData}
                searchable
                allowDeselect={false}
                description={t('edit.currency_hint')}
              />
              <FormSelect
                control={form.control}
                name="locale"
                data={locales.map((value) => ({ value, label: localeNames[value] }))}
                allowDeselect={false}
              />
              <TimezoneSelect control={form.control} name="timezone" />
              {isAdmin ? (
                <FormNumberInput
                  control={form.control}
                  name="earn_percent"
                  min={0}
                  max={100}
                  decimalScale={2}
                  suffix=" %"
                  // one's own percent is another admin's to set (the server says own_earn_percent)
                  readOnly={own}
                  description={own ? t('errors:own_earn_percent') : t('edit.earn_percent_hint')}
                />
              ) : null}
            </SimpleGrid>
            {isAdmin ? (
              <FormTextarea control={form.control} name="notes" rows={3} description={t('edit.notes_hint')} />
            ) : null}
            {canUpdate ? (
              <Group justify="flex-end" gap="xs">
                <Button variant="default" onClick={() => navigate(`/users/${user._id}`)}>
                  {t('common:actions.cancel')}
                </Button>
                <Button type="submit" loading={update.isPending}>
                  {t('common:actions.save')}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </fieldset>
      </form>
    </Card>
  );
}

export function UserEditPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('edit.title')}
        subtitle={user.data?.name}
        back={{ to: `/users/${userId}`, label: t('back_to_account') }}
      />
      {user.isPending ? <Skeleton height={320} radius="md" /> : null}
      {user.isError ? (
        <Alert color="red" title={t('errors:error_title')} role="alert">
          {t('errors:not_found')}
        </Alert>
      ) : null}
      {user.data ? <UserEditForm key={user.data._id} user={user.data} /> : null}
    </Stack>
  );
}
