import { IconClockHour4, IconError404, IconLock, IconMoodSad, IconTool } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './status-page.tsx';

const iconSize = 56;

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="404"
      title={t('misc.not_found_title')}
      text={t('misc.not_found_text')}
      icon={<IconError404 size={iconSize} />}
    />
  );
}

export function NotAuthorizedPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code="403"
      color="orange"
      title={t('misc.not_authorized_title')}
      text={t('misc.not_authorized_text')}
      icon={<IconLock size={iconSize} />}
    />
  );
}

export function ComingSoonPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      title={t('misc.coming_soon_title')}
      text={t('misc.coming_soon_text')}
      icon={<IconClockHour4 size={iconSize} />}
    />
  );
}

/** `action` replaces the link home (the maintenance screen offers a re-check and the admin sign-in). */
export function UnderMaintenancePage({ action }: { action?: ReactNode } = {}) {
  const { t } = useTranslation();
  return (
    <StatusPage
      color="yellow"
      title={t('misc.maintenance_title')}
      text={t('misc.maintenance_text')}
      icon={<IconTool size={iconSize} />}
      action={action}
    />
  );
}

export function ErrorPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      color="red"
      title={t('misc.error_title')}
      text={t('errors:generic')}
      icon={<IconMoodSad size={iconSize} />}
    />
  );
}
