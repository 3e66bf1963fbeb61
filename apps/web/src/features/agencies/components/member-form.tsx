import { type AgencyMember, addMemberInput, memberUpdate } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormPasswordInput, FormTextInput } from '../../../components/form-fields.tsx';
import { useAppAbility } from '../../../lib/ability.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';

type MemberValues = z.input<typeof addMemberInput>;
const names = ['name', 'email', 'password', 'phone'] as const;

/** A new member (with a password) or an existing one (name, e-mail, phone). */
export function MemberForm({
  member,
  submitLabel,
  onSubmit,
  onCancel,
  pending,
}: {
  member?: AgencyMember;
  submitLabel: string;
  onSubmit: (values: MemberValues) => Promise<unknown>;
  onCancel: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation('agencies');
  // a member's address is the admins' (or the member's own) to change, not the agency's
  const isAdmin = useAppAbility().can('update', 'AccountAdmin');
  const emailLocked = Boolean(member) && !isAdmin;
  const schema = member ? memberUpdate.required({ name: true, email: true }) : addMemberInput;
  const form = useForm<MemberValues>({
    resolver: zodResolver(schema as typeof addMemberInput, { error: validationErrorMap }),
    defaultValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      phone: member?.phone ?? '',
      password: '',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit({ ...values, phone: values.phone ? values.phone : undefined });
    } catch (error) {
      setFieldErrors(error, form.setError, names);
    }
  });
  return (
    <Card padding="lg" radius="md" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormTextInput control={form.control} name="name" autoComplete="off" required data-autofocus />
          <FormTextInput
            control={form.control}
            name="email"
            type="email"
            autoComplete="off"
            required
            readOnly={emailLocked}
            description={emailLocked ? t('errors:email_change_not_allowed') : undefined}
          />
          {member ? null : (
            <FormPasswordInput
              control={form.control}
              name="password"
              autoComplete="new-password"
              description={t('members.password_hint')}
              required
            />
          )}
          <FormTextInput control={form.control} name="phone" type="tel" autoComplete="off" />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onCancel}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
