export { ForgotPasswordPage } from './forgot-password-page.tsx';
export { LoginPage } from './login-page.tsx';
export { RegisterPage } from './register-page.tsx';
export { ResetPasswordV1Page, ResetPasswordV2Page } from './reset-password-page.tsx';
