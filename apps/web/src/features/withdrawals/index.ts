export { UserWithdrawalsPage } from './user-withdrawals-page.tsx';
export { WithdrawalsQueuePage } from './withdrawals-queue-page.tsx';
