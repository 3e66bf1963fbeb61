import { type Agency, agencyInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormNumberInput, FormSwitch, FormTextInput } from '../../../components/form-fields.tsx';
import { useAppAbility } from '../../../lib/ability.tsx';
import { setFieldErrors } from '../../../lib/form-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';

const agencyFields = agencyInput.omit({ user_id: true });
export type AgencyValues = z.output<typeof agencyFields>;
const names = ['title', 'agency_rate', 'phoenix_rate', 'campaign_rate', 'showlogo', 'showamount'] as const;

/** Title, the three rates (percent) and the two display switches of an agency. */
export function AgencyForm({
  agency,
  submitLabel,
  onSubmit,
  onCancel,
  pending,
}: {
  agency?: Agency;
  submitLabel: string;
  onSubmit: (values: AgencyValues) => Promise<unknown>;
  onCancel: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation('agencies');
  // the rates are revenue terms: admins set them, an agency sees its own disabled
  const termsLocked = !useAppAbility().can('update', 'RevenueTerms');
  const form = useForm<z.input<typeof agencyFields>, unknown, AgencyValues>({
    resolver: zodResolver(agencyFields, { error: validationErrorMap }),
    defaultValues: {
      title: agency?.title ?? '',
      agency_rate: agency?.agency_rate ?? 0,
      phoenix_rate: agency?.phoenix_rate ?? 0,
      campaign_rate: agency?.campaign_rate ?? 0,
      showlogo: agency?.showlogo ?? true,
      showamount: agency?.showamount ?? true,
    },
  });
  const f = (field: string) => t(`resources.agencies.fields.${field}`);
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      setFieldErrors(error, form.setError, names);
    }
  });
  return (
    <Card padding="lg" radius="md" maw={720}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <FormTextInput control={form.control} name="title" label={f('title')} required data-autofocus />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {(['agency_rate', 'phoenix_rate', 'campaign_rate'] as const).map((name) => (
              <FormNumberInput
                key={name}
                control={form.control}
                name={name}
                label={f(name)}
                min={0}
                max={100}
                decimalScale={2}
                suffix=" %"
                disabled={termsLocked}
              />
            ))}
          </SimpleGrid>
          {termsLocked ? (
            <Text c="dimmed" fz="sm">
              {t('common:revenue_terms.admin_only')}
            </Text>
          ) : null}
          <FormSwitch
            control={form.control}
            name="showlogo"
            label={f('showlogo')}
            description={t('showlogo_hint')}
          />
          <FormSwitch
            control={form.control}
            name="showamount"
            label={f('showamount')}
            description={t('showamount_hint')}
          />
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
