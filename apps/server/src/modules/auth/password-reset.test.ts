import type { AddressInfo } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { mailOutbox } from '../../db/schema/index.ts';
import { createTestApp, form, login, register, type TestApp } from '../../test/test-app.ts';

interface Received {
  to: string[];
  raw: string;
}

// A real SMTP server on a free local port: the mail must really leave through SMTP_URL.
const inbox: Received[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    stream.on('end', () => {
      inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});

let t: TestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

/** Quoted-printable soft breaks and escapes undone, so the link can be read from the raw message. */
function decode(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

function tokenFrom(raw: string): string {
  const m = /reset-password-v2\?token=([A-Za-z0-9_-]+)/.exec(decode(raw));
  if (!m?.[1]) throw new Error(`no reset link in mail:\n${raw}`);
  return m[1];
}

const forgotRequest = (email: string, lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { email },
    headers: { 'accept-language': lang },
  });

/** Asks for a reset link and waits for its mail: the mail leaves after the answer, off the request. */
async function forgot(email: string, lang = 'en') {
  const before = inbox.length;
  const res = await forgotRequest(email, lang);
  await vi.waitFor(() => expect(inbox.slice(before).some((m) => m.to.includes(email))).toBe(true), {
    timeout: 5000,
  });
  return { res, mail: inbox.slice(before).filter((m) => m.to.includes(email)) };
}

test('forgot password e-mails a single-use link through SMTP; the new password works, the old does not', async () => {
  const u = await register(t.app);
  const { res, mail } = await forgot(u.email);
  expect(res.statusCode).toBe(200);
  expect(mail).toHaveLength(1);
  expect(mail[0]?.to).toEqual([u.email]);
  expect(decode(mail[0]?.raw ?? '')).toContain('Reset your password');
  const resetToken = tokenFrom(mail[0]?.raw ?? '');

  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: resetToken, password: 'brand-new-pass' },
  });
  expect(reset.statusCode).toBe(200);
  expect((await login(t.app, u.email, 'brand-new-pass')).user_id).toBe(u.user_id);
  const old = await t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    ...form({ grant_type: 'password', username: u.email, password: u.password }),
  });
  expect(old.statusCode).toBe(400);

  const again = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: resetToken, password: 'another-pass-1' },
  });
  expect(again.statusCode).toBe(400);
  expect(again.json().error).toBe('invalid_reset_token');

  await vi.waitFor(async () => {
    const [row] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, u.email))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(row).toMatchObject({ to: u.email, status: 'sent' });
  });
});

test('a successful reset kills the older links of the same account', async () => {
  const u = await register(t.app);
  const older = tokenFrom((await forgot(u.email)).mail[0]?.raw ?? '');
  const newer = tokenFrom((await forgot(u.email)).mail[0]?.raw ?? '');
  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: newer, password: 'brand-new-pass' },
  });
  expect(reset.statusCode).toBe(200);
  const stale = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: older, password: 'someone-elses-pass-1' },
  });
  expect(stale.statusCode).toBe(400);
  expect(stale.json().error).toBe('invalid_reset_token');
  await login(t.app, u.email, 'brand-new-pass');
});

test('a reset ends every existing session of the account', async () => {
  const u = await register(t.app);
  const { mail } = await forgot(u.email);
  await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: tokenFrom(mail[0]?.raw ?? ''), password: 'brand-new-pass' },
  });
  const refresh = await t.app.inject({
    method: 'POST',
    url: '/api/auth/token',
    ...form({ grant_type: 'refresh_token', refresh_token: u.refresh_token }),
  });
  expect(refresh.statusCode).toBe(400);
});

test('an unknown e-mail gets the same answer as a known one, and no mail', async () => {
  const known = await register(t.app);
  const before = inbox.length;
  const unknownRes = await forgotRequest('nobody-here@test.local');
  const knownRes = await forgotRequest(known.email);
  expect(unknownRes.statusCode).toBe(knownRes.statusCode);
  expect(unknownRes.body).toBe(knownRes.body);
  expect(unknownRes.json()).toEqual({ status: 'ok' });
  // the unknown address defers no work at all: once the known one's mail is out, nothing else came
  await vi.waitFor(() => expect(inbox.slice(before).some((m) => m.to.includes(known.email))).toBe(true));
  expect(inbox.slice(before).map((m) => m.to)).toEqual([[known.email]]);
});

test('the e-mail speaks the language of the request', async () => {
  const u = await register(t.app);
  const { mail } = await forgot(u.email, 'de-DE,de;q=0.9');
  const text = decode(mail[0]?.raw ?? '');
  expect(text).not.toContain('Reset your password');
  expect(text).toContain('reset-password-v2?token=');
});

test('an expired or made-up token is refused', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/reset-password',
    payload: { token: 'made-up-token-123', password: 'whatever-123' },
  });
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toBe('invalid_reset_token');
});

test('without SMTP_URL the mail lands in the outbox table as logged', async () => {
  const local = await createTestApp();
  try {
    const u = await register(local.app);
    const res = await local.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: u.email },
    });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(async () => {
      const [row] = await local.database.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
      expect(row).toMatchObject({ to: u.email, status: 'logged' });
      expect(row?.text).toContain('/pages/authentication/reset-password-v2?token=');
    });
  } finally {
    await local.close();
  }
});
