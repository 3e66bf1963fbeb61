import { Alert, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { useAddMember, useAgency, useMembers, useUpdateMember } from './api/agencies-queries.ts';
import { MemberForm } from './components/member-form.tsx';

export function MemberCreatePage() {
  const { t } = useTranslation('agencies');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const agency = useAgency(id);
  const add = useAddMember(id);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('members.create_title')}
        subtitle={agency.data?.title}
        back={{ to: `/agencies/${id}`, label: t('back_to_agency') }}
      />
      <MemberForm
        submitLabel={t('members.add')}
        pending={add.isPending}
        onCancel={() => navigate(`/agencies/${id}`)}
        onSubmit={async ({ name, email, password, phone }) => {
          const member = await add.mutateAsync({ name, email, password, ...(phone ? { phone } : {}) });
          notifySuccess(t('members.added', { name: member.name }));
          navigate(`/agencies/${id}`);
        }}
      />
    </Stack>
  );
}

export function MemberEditPage() {
  const { t } = useTranslation('agencies');
  const { id = '', memberId = '' } = useParams();
  const navigate = useNavigate();
  const agency = useAgency(id);
  const members = useMembers(id);
  const update = useUpdateMember(id, memberId);
  const member = members.data?.items.find((m) => m._id === memberId);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('members.edit_title')}
        subtitle={agency.data?.title}
        back={{ to: `/agencies/${id}`, label: t('back_to_agency') }}
      />
      {members.isPending ? <Skeleton height={260} radius="md" maw={560} /> : null}
      {members.data && !member ? (
        <Alert color="red" title={t('errors:error_title')} role="alert">
          {t('errors:not_a_member')}
        </Alert>
      ) : null}
      {member ? (
        <MemberForm
          key={member._id}
          member={member}
          submitLabel={t('common:actions.save')}
          pending={update.isPending}
          onCancel={() => navigate(`/agencies/${id}`)}
          onSubmit={async ({ name, email, phone }) => {
            await update.mutateAsync({ name, email, phone: phone ?? '' });
            notifySuccess(t('members.saved', { name }));
            navigate(`/agencies/${id}`);
          }}
        />
      ) : null}
    </Stack>
  );
}
