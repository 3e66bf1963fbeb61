import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, register, type TestApp } from '../../test/test-app.ts';

describe('POST /api/parser/convert', () => {
  let t: TestApp;
  let token = '';
  beforeAll(async () => {
    t = await createTestApp();
    token = (await register(t.app)).access_token;
  });
  afterAll(() => t.close());

  const convert = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/parser/convert',
      headers: { authorization: `Bearer ${token}`, ...headers },
      payload,
    });

  test('PHP date letters and strftime become the parser tokens, and the sample is read with them', async () => {
    const php = await convert({ date_parse_string: 'd.m.Y H:i', sample: '05.11.2026 14:30' });
    expect(php.statusCode, php.body).toBe(200);
    expect(php.json()).toEqual({
      date_parse_string: 'DD.MM.YYYY HH:mm',
      converted_from: 'php',
      date: '2026-11-05T14:30:00.000Z',
    });
    // an escaped letter stays a letter
    expect((await convert({ date_parse_string: 'Y-m-d\\TH:i:s' })).json()).toMatchObject({
      date_parse_string: 'YYYY-MM-DDTHH:mm:ss',
      date: null,
    });
    expect(
      (await convert({ date_parse_string: '%Y/%m/%d %H:%M:%S', sample: '2026/01/31 23:59:58' })).json(),
    ).toEqual({
      date_parse_string: 'YYYY/MM/DD HH:mm:ss',
      converted_from: 'strftime',
      date: '2026-01-31T23:59:58.000Z',
    });
    // already the parser's own: kept; a sample that does not match reads as no date
    expect((await convert({ date_parse_string: 'DD.MM.YYYY', sample: 'yesterday' })).json()).toEqual({
      date_parse_string: 'DD.MM.YYYY',
      converted_from: 'tokens',
      date: null,
    });
  });

  test('a letter with no token is refused, named, in the caller language; bad bodies are 422; signed-in only', async () => {
    const monthName = await convert({ date_parse_string: 'd M Y' }, { 'accept-language': 'de' });
    expect(monthName.statusCode).toBe(422);
    expect(monthName.json().errors[0]).toMatchObject({
      field: 'date_parse_string',
      code: 'date_format_unsupported',
    });
    expect(monthName.json().errors[0].detail).toContain('M');
    expect(monthName.json().errors[0].detail).toContain('Datumsformat');
    expect((await convert({ date_parse_string: '%d %B %Y' })).json().errors[0].detail).toContain('%B');
    expect((await convert({ date_parse_string: '' })).statusCode).toBe(422);
    expect((await convert({ date_parse_string: 'x'.repeat(101) })).statusCode).toBe(422);
    expect((await convert({ date_parse_string: 'Y', extra: 1 })).statusCode).toBe(422);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/parser/convert',
      payload: { date_parse_string: 'Y' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
