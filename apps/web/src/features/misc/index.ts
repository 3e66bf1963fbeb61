export {
  ComingSoonPage,
  ErrorPage,
  NotAuthorizedPage,
  NotFoundPage,
  PaymentFailedPage,
  PaymentSuccessPage,
  UnderMaintenancePage,
} from './misc-pages.tsx';
