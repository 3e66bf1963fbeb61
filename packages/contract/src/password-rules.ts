import { commonPasswordList } from './common-passwords.ts';

/** The shortest password accepted anywhere a password is chosen (register, reset, change, members). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

let common: Set<string> | undefined;

/**
 * True when the password is on the common-password list (case-insensitive), so guessers try it first.
 * @example isCommonPassword('QwertyUiop') // true
 */
export function isCommonPassword(value: string): boolean {
  common ??= new Set(commonPasswordList.split('\n'));
  return common.has(value.toLowerCase());
}
