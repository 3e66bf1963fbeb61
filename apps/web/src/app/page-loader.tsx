import { Center, Loader } from '@mantine/core';
import { i18n } from '../lib/i18n.ts';

/** Suspense fallback: reads i18n directly, since a translation hook here would suspend as well. */
export function PageLoader() {
  const label = i18n.isInitialized ? i18n.t('common:loading') : 'Loading…';
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
