import { Alert, Anchor } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAppAbility } from '../../lib/ability.tsx';
import { useMaintenance } from './api/system-queries.ts';

/**
 * Admins keep working while the maintenance switch is on (everyone else sees the under-maintenance
 * page): this banner over every page says so, with the way to the switch.
 */
export function MaintenanceBanner() {
  const { t } = useTranslation('billing');
  const canSee = useAppAbility().can('read', 'System');
  const { pathname } = useLocation();
  const maintenance = useMaintenance(canSee);
  if (!canSee || !maintenance.data?.enabled) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconTool size={20} />}
      title={t('system.maintenance_banner_title')}
      mb="md"
      data-testid="maintenance-banner"
    >
      {t('system.maintenance_banner_text')}{' '}
      {pathname === '/system' ? null : (
        <Anchor component={Link} to="/system" fz="sm">
          {t('system.maintenance_banner_link')}
        </Anchor>
      )}
    </Alert>
  );
}
