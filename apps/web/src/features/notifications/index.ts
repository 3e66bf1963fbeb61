export { NotificationsPage } from './notifications-page.tsx';
