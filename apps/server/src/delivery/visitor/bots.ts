import { isbot } from 'isbot';

/**
 * Known bots and crawlers get no ads and are never charged. The list is `isbot` (Unlicense), built from the
 * crawler-user-agents data and kept up to date by its maintainers; a missing or blank User-Agent counts as a
 * bot too (browsers always send one; scripts often do not).
 */
export function isBotUserAgent(ua: string | undefined | null): boolean {
  if (!ua?.trim()) return true;
  return isbot(ua);
}
