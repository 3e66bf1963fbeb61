import { Alert, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { useAuth } from '../../lib/ability.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { useCreateSite, useSite, useSiteWidgets, useUpdateSite } from './api/sites-queries.ts';
import { SiteForm, type SiteSubmit } from './components/site-form.tsx';

export function SiteCreatePage() {
  const { t } = useTranslation('sites');
  const navigate = useNavigate();
  const { userId } = useAuth();
  const create = useCreateSite();
  const onSubmit = async (input: SiteSubmit) => {
    const created = await create.mutateAsync(input);
    notifySuccess(t('form.created'));
    navigate(`/sites/${created._id}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        back={userId ? { to: `/users/${userId}/sites`, label: t('list.my_title') } : undefined}
      />
      <SiteForm onSubmit={onSubmit} submitLabel={t('form.create_submit')} />
    </Stack>
  );
}

export function SiteEditPage() {
  const { t } = useTranslation('sites');
  const { siteId = '' } = useParams();
  const navigate = useNavigate();
  const site = useSite(siteId);
  const widgets = useSiteWidgets(siteId);
  const update = useUpdateSite(siteId);
  if (site.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (site.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const onSubmit = async (input: SiteSubmit) => {
    await update.mutateAsync(input);
    notifySuccess(t('form.saved'));
    navigate(`/sites/${siteId}`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.edit_title', { title: site.data.title })}
        subtitle={site.data.domain}
        back={{ to: `/sites/${siteId}`, label: site.data.title }}
      />
      <SiteForm
        key={site.data._id}
        site={site.data}
        widgetOptions={(widgets.data?.items ?? []).map((w) => ({
          value: w._id,
          label: `${w.title} (#${w._id})`,
        }))}
        onSubmit={onSubmit}
        submitLabel={t('form.save')}
      />
    </Stack>
  );
}
