import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE } from '../lib/notify.ts';

/** The toast container: loaded by providers.tsx with the first toast, not with the login page. */
export default function NotificationsHost() {
  return <Notifications autoClose={TOAST_AUTO_CLOSE} position="top-right" limit={8} />;
}
