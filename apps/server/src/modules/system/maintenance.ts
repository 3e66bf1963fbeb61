import { AppError } from '../../lib/errors.ts';
import type { SettingsService } from '../settings/settings.service.ts';

/** Who keeps working while the maintenance switch is on. */
const maintainers = new Set(['admin', 'adminreadonly']);
export const keepsWorkingInMaintenance = (role: string | null | undefined) =>
  role !== null && role !== undefined && maintainers.has(role);

/**
 * Refuses a dashboard call with 503 `{error: 'maintenance', message}` while the switch is on, unless the
 * caller is an admin. Anonymous callers (`role` null: register, password reset) are refused too.
 */
export async function refuseDuringMaintenance(settings: SettingsService, role: string | null): Promise<void> {
  if (keepsWorkingInMaintenance(role)) return;
  if ((await settings.maintenance()).enabled) throw new AppError(503, 'maintenance');
}
