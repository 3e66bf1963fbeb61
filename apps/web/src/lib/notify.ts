import { notifications } from '@mantine/notifications';
import { ApiError, AuthExpiredError } from './api-client.ts';
import { i18n } from './i18n.ts';

/** SPEC.md section 9: toasts stay for a minute. */
export const TOAST_AUTO_CLOSE = 60_000;

const closeButtonProps = () => ({ 'aria-label': i18n.t('common:close') });

export function notifySuccess(message: string, title?: string): void {
  notifications.show({
    color: 'teal',
    title,
    message,
    autoClose: TOAST_AUTO_CLOSE,
    closeButtonProps: closeButtonProps(),
  });
}

export function notifyErrorMessage(message: string, title = i18n.t('errors:error_title')): void {
  notifications.show({
    color: 'red',
    title,
    message,
    autoClose: TOAST_AUTO_CLOSE,
    closeButtonProps: closeButtonProps(),
  });
}

/**
 * The one place that turns a failure into toasts: every 422 entry gets its own red toast, known API
 * codes their translated text, anything else the generic message.
 */
export function notifyError(error: unknown): void {
  if (error instanceof AuthExpiredError) return;
  if (error instanceof ApiError) {
    if (error.fieldErrors.length > 0) {
      // one toast per message: two checks of one field can read the same
      for (const detail of new Set(error.fieldErrors.map((e) => e.detail))) notifyErrorMessage(detail);
      return;
    }
    if (error.code === 'invalid_grant') {
      notifyErrorMessage(i18n.t('errors:invalid_grant'), i18n.t('errors:invalid_grant_title'));
      return;
    }
    if (error.code !== 'generic' && i18n.exists(`errors:${error.code}`)) {
      notifyErrorMessage(i18n.t(`errors:${error.code}`));
      return;
    }
  }
  notifyErrorMessage(i18n.t('errors:generic'));
}
