import { Alert, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useOwnerListTitle } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { useCampaign, useCreateCampaign, useUpdateCampaign } from './api/campaigns-queries.ts';
import { CampaignForm } from './components/campaign-form.tsx';
import type { CampaignFormOutput } from './components/campaign-form-schema.ts';

export function CampaignCreatePage() {
  const { t } = useTranslation('campaigns');
  const { userId = '' } = useParams();
  const listTitle = useOwnerListTitle(t, userId);
  const navigate = useNavigate();
  const create = useCreateCampaign();
  const onSubmit = async (input: CampaignFormOutput) => {
    const created = await create.mutateAsync({ ...input, user_id: userId });
    notifySuccess(t('form.created'));
    navigate(`/users/${created.user_id}/campaigns/${created._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        back={{ to: `/users/${userId}/campaigns`, label: listTitle }}
      />
      <CampaignForm userId={userId} onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
    </Stack>
  );
}

export function CampaignEditPage() {
  const { t } = useTranslation('campaigns');
  const { userId = '', id = '' } = useParams();
  const navigate = useNavigate();
  const campaign = useCampaign(id);
  const update = useUpdateCampaign(id);
  if (campaign.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (campaign.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const c = campaign.data;
  const onSubmit = async (input: CampaignFormOutput) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/users/${c.user_id}/campaigns/${c._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: c.title })}
        back={{ to: `/users/${c.user_id || userId}/campaigns/${c._id}`, label: c.title }}
      />
      <CampaignForm
        key={c._id}
        campaign={c}
        userId={c.user_id}
        onSubmit={onSubmit}
        submitLabel={t('form.save')}
      />
    </Stack>
  );
}
