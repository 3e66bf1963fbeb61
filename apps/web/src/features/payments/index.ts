export { PaymentFailedPage, PaymentSuccessPage } from './payment-result-pages.tsx';
export { TopupPage } from './topup-page.tsx';
