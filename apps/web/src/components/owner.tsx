import { account, paged } from '@adp/contract';
import { type ownedSubjects, subject } from '@adp/permissions';
import { Anchor, Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { useAppAbility, useAuth } from '../lib/ability.tsx';
import { apiRequest } from '../lib/api-client.ts';

type OwnedSubject = (typeof ownedSubjects)[number];

const NOT_AUTHORIZED = '/pages/miscellaneous/not-authorized';
const accountsPage = paged(account);

/**
 * An owner column's cell: the owner's name, linked to the user page (the id while no name is known); plain
 * text for a viewer who may not open that account (an agency's member looking at its agency's owner).
 */
export function OwnerLink({ userId, name }: { userId: string; name?: string | undefined }) {
  const ability = useAppAbility();
  const text = name || `#${userId}`;
  // an agency reads its members' accounts (role agencymember); admins read every account
  if (!ability.can('read', subject('User', { _id: userId, role: 'agencymember' }))) return <>{text}</>;
  return (
    <Anchor component={Link} to={`/users/${userId}`} fz="sm" onClick={(e) => e.stopPropagation()}>
      {text}
    </Anchor>
  );
}

/**
 * The admin lists' owner filter: free text matched by the server against names and e-mails, with
 * suggestions of matching users.
 */
export function OwnerFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('fields');
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text.trim(), 250);
  const suggestions = useQuery({
    queryKey: ['users', 'list', { search: debounced, limit: 8 }],
    queryFn: () => apiRequest('/users', { schema: accountsPage, query: { search: debounced, limit: 8 } }),
    enabled: debounced.length >= 2,
    meta: { silent: true },
    staleTime: 60_000,
  });
  const data = [
    ...new Map(
      (suggestions.data?.items ?? []).map((u) => [
        u.email,
        { value: u.email, label: `${u.name} · ${u.email}` },
      ]),
    ).values(),
  ];
  return (
    <Autocomplete
      label={t('owner')}
      placeholder={t('owner_placeholder')}
      value={text}
      data={data}
      onChange={(next) => {
        setText(next);
        onChange(next.trim());
      }}
      leftSection={<IconUserSearch size={16} aria-hidden />}
      clearable
    />
  );
}

/**
 * The name of the user whose pages these are, when the caller looks at another user's pages (an admin,
 * an agency): undefined on one's own pages, so titles say "My campaigns" there and "Campaigns of Anna"
 * elsewhere.
 */
export function useOtherOwnerName(userId: string | undefined): string | undefined {
  const auth = useAuth();
  const other = Boolean(userId) && userId !== auth.userId;
  const owner = useQuery({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId ?? '')}`, { schema: account }),
    enabled: other,
    meta: { silent: true },
  });
  return other ? (owner.data?.name ?? `#${userId}`) : undefined;
}

/**
 * The title of one user's list in namespace `t` ("My campaigns", or "Campaigns of Anna" for another
 * user's): the list page's heading and the back link of its records' pages say the same.
 */
export function useOwnerListTitle(
  t: (key: string, opts?: Record<string, string>) => string,
  userId: string | undefined,
) {
  const name = useOtherOwnerName(userId);
  return name ? t('list.of_title', { name }) : t('list.my_title');
}

/**
 * A page of one user's records (/users/{userId}/campaigns...): a caller who may not read that user's
 * records goes to not-authorized at once, before any request (no "Data not found" toasts).
 */
export function OwnerGuard({
  userId,
  type,
  children,
}: {
  userId: string | undefined;
  type: OwnedSubject | 'Agency';
  children: ReactNode;
}) {
  const ability = useAppAbility();
  if (userId && !ability.can('read', subject(type, { user_id: userId })))
    return <Navigate to={NOT_AUTHORIZED} replace />;
  return <>{children}</>;
}
