import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { as, createTestApp, register, type TestApp } from '../../test/test-app.ts';

describe('no payment provider (the default: no Stripe key, no PAYMENT_SANDBOX=on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test('nothing is offered, a top-up is a clear 409 and the sandbox page does not exist', async () => {
    const u = await register(t.app);
    const client = as(t.app, u.access_token);
    expect((await client.get('/api/payments/providers')).json()).toEqual({ providers: [] });
    for (const topup of [{ sum: 25 }, { sum: 25, provider: 'sandbox' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/users/${u.user_id}/topups`,
        headers: { authorization: `Bearer ${u.access_token}`, 'accept-language': 'en' },
        payload: { topup },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error: 'payments_not_configured',
        message: expect.stringContaining('Ask the administrator'),
      });
    }
    expect((await client.get(`/api/users/${u.user_id}`)).json().balance).toBe(0);
    const page = await t.app.inject({ method: 'GET', url: '/payments/sandbox/1?token=0123456789abc' });
    expect(page.statusCode).toBe(404);
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/payments/sandbox/1/confirm',
      payload: { token: '0123456789abc' },
    });
    expect(confirm.statusCode).toBe(404);
  });

  test('PAYMENT_SANDBOX accepts only on or off', async () => {
    const { loadConfig } = await import('../../config.ts');
    expect(loadConfig({}).paymentSandbox).toBe(false);
    expect(loadConfig({ PAYMENT_SANDBOX: 'off' }).paymentSandbox).toBe(false);
    expect(loadConfig({ PAYMENT_SANDBOX: 'on' }).paymentSandbox).toBe(true);
    expect(() => loadConfig({ PAYMENT_SANDBOX: 'yes' })).toThrow(/PAYMENT_SANDBOX/);
  });
});

describe('sandbox provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENT_SANDBOX: 'on' });
  });
  afterAll(() => t.close());

  async function startTopup(token: string, userId: string, sum = 40) {
    const res = await as(t.app, token).post(`/api/users/${userId}/topups`, { topup: { sum } });
    expect(res.statusCode).toBe(201);
    return res.json() as { _id: string; redirect_url: string; status: string };
  }

  test('the user confirms on the sandbox page, lands on payment-success, and is credited once', async () => {
    const u = await register(t.app);
    const started = await startTopup(u.access_token, u.user_id);
    expect(started.status).toBe('pending');
    const url = new URL(started.redirect_url);
    expect(url.pathname).toBe(`/payments/sandbox/${started._id}`);
    const page = await t.app.inject({
      method: 'GET',
      url: url.pathname + url.search,
      headers: { 'accept-language': 'ru' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Подтвердить платёж');
    expect(page.body).toMatch(/40,00\s\$/);
    // a page that moves money: never inside another site's frame, nothing loaded from elsewhere
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const token = url.searchParams.get('token')!;
    const confirm = () =>
      t.app.inject({
        method: 'POST',
        url: `/payments/sandbox/${started._id}/confirm`,
        payload: `token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const [a, b] = await Promise.all([confirm(), confirm()]);
    for (const r of [a, b]) {
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toBe(`http://localhost:8080/payment-success?topup=${started._id}`);
    }
    const me = as(t.app, u.access_token);
    expect((await me.get(`/api/users/${u.user_id}`)).json().balance).toBe(40);
    expect((await me.get(`/api/topups/${started._id}`)).json()).toMatchObject({ status: 'paid', sum: 40 });
    expect((await me.get(`/api/users/${u.user_id}/payments`)).json().items).toEqual([
      expect.objectContaining({ type: 'topup', sum: 40, ref: `topup:${started._id}` }),
    ]);
  });

  test('failing the payment lands on payment-failed and credits nothing', async () => {
    const u = await register(t.app);
    const started = await startTopup(u.access_token, u.user_id);
    const token = new URL(started.redirect_url).searchParams.get('token')!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${started._id}/fail`,
      payload: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.headers.location).toContain('/payment-failed?topup=');
    const again = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${started._id}/confirm`,
      payload: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.headers.location).toContain('/payment-failed');
    expect((await as(t.app, u.access_token).get(`/api/users/${u.user_id}`)).json().balance).toBe(0);
  });

  test('a wrong link token is a 404 and credits nothing', async () => {
    const u = await register(t.app);
    const started = await startTopup(u.access_token, u.user_id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${started._id}/confirm`,
      payload: 'token=guessed-token-value',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(404);
    expect((await as(t.app, u.access_token).get(`/api/users/${u.user_id}`)).json().balance).toBe(0);
  });

  test('a user tops up only its own balance; readonly roles cannot top up', async () => {
    const u = await register(t.app);
    const other = await register(t.app);
    expect(
      (await as(t.app, other.access_token).post(`/api/users/${u.user_id}/topups`, { topup: { sum: 5 } }))
        .statusCode,
    ).toBe(404);
    const bad = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, { topup: { sum: 0 } });
    expect(bad.statusCode).toBe(422);
    // the message says the bounds
    expect(bad.json().errors).toHaveLength(1);
    expect(bad.json().errors[0].detail).toMatch(/1/);
    const big = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, {
      topup: { sum: 100_001 },
    });
    expect(big.json().errors[0].detail).toMatch(/100[ ,.]?000/);
    const unknown = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, {
      topup: { sum: 5, provider: 'stripe' },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'provider', code: 'provider_unavailable' });
  });
});

describe('Stripe Checkout provider', () => {
  const webhookSecret = 'whsec_test_secret';
  let t: TestApp;
  let fakeStripe: Server;
  const sessions: Record<string, string>[] = [];
  const signer = new Stripe('sk_test_local');

  beforeAll(async () => {
    // A local stand-in for api.stripe.com: records the Checkout Session the platform creates.
    fakeStripe = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(body));
        // $6.66 is an amount this Stripe refuses
        if (params['line_items[0][price_data][unit_amount]'] === '666') {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'refused' } }));
          return;
        }
        sessions.push({ path: req.url ?? '', auth: req.headers.authorization ?? '', ...params });
        const id = `cs_test_${sessions.length}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/pay/${id}` }),
        );
      });
    });
    await new Promise<void>((r) => fakeStripe.listen(0, '127.0.0.1', r));
    const { port } = fakeStripe.address() as AddressInfo;
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => fakeStripe.close(r));
  });

  function deliver(event: object, secret = webhookSecret) {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
  }
  const completed = (eventId: string, sessionId: string) => ({
    id: eventId,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', amount_total: 2500 },
    },
  });

  test('with Stripe configured the sandbox is off and a top-up opens a Checkout Session', async () => {
    const u = await register(t.app);
    const res = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, {
      topup: { sum: 25 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      provider: 'stripe',
      redirect_url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/pay\/cs_test_/),
    });
    const sent = sessions.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.auth).toBe('Bearer sk_test_local');
    expect(sent['line_items[0][price_data][unit_amount]']).toBe('2500');
    expect(sent.success_url).toContain('/payment-success?topup=');
    const sandbox = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, {
      topup: { sum: 25, provider: 'sandbox' },
    });
    expect(sandbox.statusCode).toBe(422);
  });

  test('only a signed webhook credits, and the same event delivered twice credits once', async () => {
    const u = await register(t.app);
    const started = (
      await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, { topup: { sum: 25 } })
    ).json();
    const sessionId = new URL(started.redirect_url).pathname.split('/').pop()!;
    expect((await as(t.app, u.access_token).get(`/api/users/${u.user_id}`)).json().balance).toBe(0);

    const forged = await deliver(completed('evt_forged', sessionId), 'whsec_wrong');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('invalid_signature');

    const first = await deliver(completed('evt_1', sessionId));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, result: 'credited' });
    const second = await deliver(completed('evt_1', sessionId));
    expect(second.json()).toEqual({ received: true, result: 'ignored' });
    // a different event for the same session does not pay twice either
    const third = await deliver(completed('evt_2', sessionId));
    expect(third.json().result).toBe('ignored');
    expect((await as(t.app, u.access_token).get(`/api/users/${u.user_id}`)).json().balance).toBe(25);
    expect((await as(t.app, u.access_token).get(`/api/topups/${started._id}`)).json().status).toBe('paid');
    expect(await t.ctxLedgerSum(u.user_id)).toBe(25);
  });

  test('an expired session marks the top-up failed; an unpaid completion credits nothing', async () => {
    const u = await register(t.app);
    const started = (
      await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, { topup: { sum: 10 } })
    ).json();
    const sessionId = new URL(started.redirect_url).pathname.split('/').pop()!;
    const unpaid = completed('evt_unpaid', sessionId);
    (unpaid.data.object as { payment_status: string }).payment_status = 'unpaid';
    expect((await deliver(unpaid)).json().result).toBe('ignored');
    await deliver({
      id: 'evt_exp',
      object: 'event',
      type: 'checkout.session.expired',
      data: { object: { id: sessionId, object: 'checkout.session' } },
    });
    expect((await as(t.app, u.access_token).get(`/api/topups/${started._id}`)).json().status).toBe('failed');
    expect((await as(t.app, u.access_token).get(`/api/users/${u.user_id}`)).json().balance).toBe(0);
  });

  test('amounts Stripe cannot charge (fractions of a cent) are refused', async () => {
    const u = await register(t.app);
    const res = await as(t.app, u.access_token).post(`/api/users/${u.user_id}/topups`, {
      topup: { sum: 10.005 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatchObject({ field: 'sum', code: 'whole_cents' });
    // refused before anything is recorded
    expect((await as(t.app, u.access_token).get(`/api/users/${u.user_id}/topups`)).json().total).toBe(0);
  });

  test('a provider that fails to start the payment: 502, and the top-up is failed, not left pending', async () => {
    const u = await register(t.app);
    const api = as(t.app, u.access_token);
    const res = await api.post(`/api/users/${u.user_id}/topups`, { topup: { sum: 6.66 } });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('provider_unavailable');
    const list = (await api.get(`/api/users/${u.user_id}/topups`)).json();
    expect(list.items.map((x: { status: string }) => x.status)).toEqual(['failed']);
  });
});
