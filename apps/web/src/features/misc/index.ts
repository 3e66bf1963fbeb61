export {
  ComingSoonPage,
  ErrorPage,
  NotAuthorizedPage,
  NotFoundPage,
  UnderMaintenancePage,
} from './misc-pages.tsx';
