import { Center, Loader } from '@mantine/core';

/** Shown while a route chunk or a locale file loads; plain so it works before translations arrive. */
export function PageLoader() {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader aria-label="Loading" />
    </Center>
  );
}
