export { UserPayRedirect } from './pay-redirect.tsx';
export { ReferralsPage } from './referrals-page.tsx';
export { UserEditPage } from './user-edit-page.tsx';
export { UserPage } from './user-page.tsx';
export { UserPaymentsPage, UserTransactionsPage } from './user-payments-page.tsx';
export { UsersListPage } from './users-list-page.tsx';
