import type { Agency } from '@adp/contract';
import { Alert, Skeleton, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { useAgency, useCreateAgency, useUpdateAgency } from './api/agencies-queries.ts';
import { AgencyForm } from './components/agency-form.tsx';
import { LogoUpload } from './components/logo-upload.tsx';

export function AgencyCreatePage() {
  const { t } = useTranslation('agencies');
  const navigate = useNavigate();
  const auth = useAuth();
  const [params] = useSearchParams();
  const ability = useAppAbility();
  // admins create agencies for agency users; everyone else owns what they create
  const choosesOwner = ability.can('manage', 'ACL');
  const [owner, setOwner] = useState(params.get('user_id') ?? '');
  const create = useCreateAgency();
  const back = owner
    ? `/users/${owner}/agencies`
    : auth.userId
      ? `/users/${auth.userId}/agencies`
      : '/agencies';
  return (
    <Stack gap="md">
      <PageHeader title={t('create_title')} back={{ to: back, label: t('back_to_list') }} />
      {choosesOwner ? (
        <TextInput
          label={t('resources.agencies.fields.user_id')}
          description={t('owner_hint')}
          value={owner}
          onChange={(event) => setOwner(event.currentTarget.value.trim())}
          inputMode="numeric"
          maw={720}
        />
      ) : null}
      <AgencyForm
        submitLabel={t('create')}
        pending={create.isPending}
        onCancel={() => navigate(back)}
        onSubmit={async (values) => {
          const created = await create.mutateAsync({
            ...values,
            ...(choosesOwner && owner && owner !== auth.userId ? { user_id: owner } : {}),
          });
          notifySuccess(t('created', { title: created.title }));
          navigate(`/agencies/${created._id}`);
        }}
      />
    </Stack>
  );
}

function EditAgency({ agency }: { agency: Agency }) {
  const { t } = useTranslation('agencies');
  const navigate = useNavigate();
  const update = useUpdateAgency(agency._id);
  return (
    <Stack gap="md">
      <LogoUpload agency={agency} />
      <AgencyForm
        agency={agency}
        submitLabel={t('common:actions.save')}
        pending={update.isPending}
        onCancel={() => navigate(`/agencies/${agency._id}`)}
        onSubmit={async (values) => {
          await update.mutateAsync(values);
          notifySuccess(t('saved'));
          navigate(`/agencies/${agency._id}`);
        }}
      />
    </Stack>
  );
}

export function AgencyEditPage() {
  const { t } = useTranslation('agencies');
  const { id = '' } = useParams();
  const agency = useAgency(id);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('edit_title')}
        subtitle={agency.data?.title}
        back={{ to: `/agencies/${id}`, label: t('back_to_agency') }}
      />
      {agency.isPending ? <Skeleton height={320} radius="md" maw={720} /> : null}
      {agency.isError ? (
        <Alert color="red" title={t('errors:error_title')} role="alert">
          {t('errors:not_found')}
        </Alert>
      ) : null}
      {agency.data ? <EditAgency key={agency.data._id} agency={agency.data} /> : null}
    </Stack>
  );
}
