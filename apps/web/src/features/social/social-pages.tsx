import type { SocialGroup } from '@adp/contract';
import { subject } from '@adp/permissions';
import { Alert, Anchor, Badge, Button, Skeleton, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { notifySuccess } from '../../lib/notify.ts';
import {
  useCreateSocialGroup,
  useSiteSocialGroups,
  useSocialGroup,
  useSocialSite,
  useSocialSiteChoices,
  useUpdateSocialGroup,
} from './api/social-queries.ts';
import { SocialGroupForm, type SocialGroupSubmit } from './components/social-group-form.tsx';

/** /sites/{siteId}/social: the site's social pages. */
export function SiteSocialGroupsPage() {
  const { t } = useTranslation('social');
  const { siteId = '' } = useParams();
  const [page, setPage] = useState(1);
  const site = useSocialSite(siteId);
  const groups = useSiteSocialGroups(siteId, page);
  const ability = useAppAbility();
  const canCreate = Boolean(
    site.data && ability.can('create', subject('SocialGroup', { user_id: site.data.user_id })),
  );
  const columns: Column<SocialGroup>[] = [
    {
      key: 'title',
      header: t('fields:title'),
      cell: (g) =>
        ability.can('update', subject('SocialGroup', { ...g })) ? (
          <Anchor component={Link} to={`/social/${g._id}/edit`} fw={600}>
            {g.title}
          </Anchor>
        ) : (
          g.title
        ),
    },
    { key: 'page', header: t('fields:facebook_page_id'), cell: (g) => g.facebook_page_id },
    {
      key: 'autopublish',
      header: t('fields:autopublish'),
      cell: (g) => (
        <Badge variant="light" color={g.autopublish ? 'teal' : 'gray'}>
          {g.autopublish ? t('list.on') : t('list.off')}
        </Badge>
      ),
    },
    {
      key: 'rights',
      header: t('rights.title'),
      cell: (g) => (g.rights_checked_at ? formatDateTime(g.rights_checked_at) : t('rights.not_checked')),
    },
    { key: 'posts', header: t('list.posts'), cell: (g) => g.posts_count, align: 'right' },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        subtitle={site.data?.domain}
        back={site.data ? { to: `/sites/${siteId}`, label: site.data.title } : undefined}
        actions={
          canCreate ? (
            <Button
              component={Link}
              to={`/social/create?site_id=${siteId}`}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              {t('list.create')}
            </Button>
          ) : null
        }
      />
      <DataTable
        columns={columns}
        rows={groups.data?.items ?? []}
        rowKey={(g) => g._id}
        loading={groups.isPending}
        error={groups.error}
        empty={t('list.empty')}
        page={page}
        total={groups.data?.total}
        limit={20}
        onPage={setPage}
        caption={t('list.title')}
      />
    </Stack>
  );
}

function useSiteOptions() {
  const choices = useSocialSiteChoices();
  return (choices.data?.items ?? []).map((s) => ({ value: s._id, label: `${s.title} (${s.domain})` }));
}

/** /social/create?site_id= */
export function SocialGroupCreatePage() {
  const { t } = useTranslation('social');
  const [search] = useSearchParams();
  const siteId = search.get('site_id') ?? undefined;
  const siteOptions = useSiteOptions();
  const create = useCreateSocialGroup();
  const navigate = useNavigate();
  const onSubmit = async (input: SocialGroupSubmit) => {
    const created = await create.mutateAsync({ ...input, autopublish: false });
    notifySuccess(t('form.created'));
    navigate(`/social/${created._id}/edit`);
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={t('form.create_title')}
        back={siteId ? { to: `/sites/${siteId}/social`, label: t('list.title') } : undefined}
      />
      <SocialGroupForm
        siteOptions={siteOptions}
        siteId={siteId}
        onSubmit={onSubmit}
        submitLabel={t('form.create_submit')}
      />
    </Stack>
  );
}

/** /social/{groupId}/edit: the settings, the rights check and autopublish. */
export function SocialGroupEditPage() {
  const { t } = useTranslation('social');
  const { groupId = '' } = useParams();
  const group = useSocialGroup(groupId);
  const siteOptions = useSiteOptions();
  const update = useUpdateSocialGroup(groupId);
  if (group.isPending) return <Skeleton height={320} radius="md" aria-busy="true" />;
  if (group.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const onSubmit = async ({ site_id: _site, access_token, ...rest }: SocialGroupSubmit) => {
    await update.mutateAsync({ ...rest, ...(access_token ? { access_token } : {}) });
    notifySuccess(t('form.saved'));
  };
  return (
    <Stack gap="md">
      <PageHeader
        title={group.data.title}
        back={{ to: `/sites/${group.data.site_id}/social`, label: t('list.title') }}
      />
      <SocialGroupForm
        key={group.data._id}
        group={group.data}
        siteOptions={siteOptions}
        onSubmit={onSubmit}
        submitLabel={t('form.save')}
      />
    </Stack>
  );
}
