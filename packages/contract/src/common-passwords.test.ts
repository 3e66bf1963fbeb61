import { expect, test } from 'vitest';
import { longCommonPasswords } from '../scripts/common-passwords.ts';
import { commonPasswordList } from './common-passwords.ts';
import { isCommonPassword } from './password-rules.ts';
import { password } from './users.ts';

test('the kept list is the library list cut to the length rule (regenerate after an upgrade)', () => {
  expect(commonPasswordList.split('\n')).toEqual(longCommonPasswords());
});

test('common passwords are refused whatever their case; short ones by the length rule', () => {
  expect(isCommonPassword('QwertyUiop')).toBe(true);
  expect(isCommonPassword('correct horse battery')).toBe(false);
  for (const weak of ['12345678', 'password123', 'qwertyuiop', 'Password123']) {
    expect(password.safeParse(weak).success, weak).toBe(false);
  }
  expect(password.safeParse('password123').error?.issues[0]?.message).toBe('password_common');
  expect(password.safeParse('12345678').error?.issues[0]?.code).toBe('too_small');
  expect(password.safeParse('violet-harbor-42').success).toBe(true);
});
