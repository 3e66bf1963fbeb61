import { Button, Group } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { UnderMaintenancePage } from '../features/misc/misc-pages.tsx';
import { clearCredentials } from '../lib/auth-storage.ts';
import { clearMaintenance, fetchMaintenance, forgetPublicMaintenance } from '../lib/maintenance.ts';
import { FullLayout } from './layouts/full-layout.tsx';

/** How often the page asks whether maintenance is over (then the dashboard comes back by itself). */
const RECHECK_MS = 30_000;

async function backIfOver(): Promise<boolean> {
  if (await fetchMaintenance(true)) return false;
  forgetPublicMaintenance();
  clearMaintenance();
  window.location.reload();
  return true;
}

/**
 * What a non-admin (and a visitor without a session) sees while the maintenance switch is on, on every
 * route: the under-maintenance page, re-checked every 30 s, with a way for an administrator to sign in.
 */
export default function MaintenanceScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    const timer = setInterval(() => void backIfOver(), RECHECK_MS);
    return () => clearInterval(timer);
  }, []);
  const check = async () => {
    setChecking(true);
    try {
      await backIfOver();
    } finally {
      setChecking(false);
    }
  };
  const adminLogin = () => {
    // a non-admin's session cannot be used meanwhile; the administrator signs in afresh
    clearCredentials();
    clearMaintenance();
    navigate('/login?admin=1');
  };
  return (
    <FullLayout>
      <UnderMaintenancePage
        action={
          <Group justify="center" gap="sm">
            <Button onClick={() => void check()} loading={checking}>
              {t('misc.maintenance_check')}
            </Button>
            <Button variant="subtle" onClick={adminLogin}>
              {t('misc.maintenance_admin_login')}
            </Button>
          </Group>
        }
      />
    </FullLayout>
  );
}
