import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, baseURL, launchBrowser, loginThroughApi, newPage, registerUser } from './browser.ts';

let browser: Browser;
let adminToken = '';

/** Calls the API as the admin, for the setup steps a flow does not test. */
async function asAdmin(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const balanceOf = (page: Page) => page.getByTestId('account-balance');

beforeAll(async () => {
  browser = await launchBrowser();
  const response = await fetch(`${baseURL()}/api/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: admin().email,
      password: admin().password,
    }),
  });
  adminToken = ((await response.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await browser?.close();
});

describe('accounts, money and agencies', () => {
  test('an admin finds a user by search, pays them, and the balance and ledger show it', async () => {
    const client = await registerUser();
    const { context, page } = await newPage(browser);
    try {
      await loginThroughApi(page, admin().email, admin().password);
      await page.goto('/users');
      await page.getByLabel('Search').fill(client.email);
      // other flows register users with the same names: the e-mail narrows the list to this one
      await page.waitForURL(/search=/);
      const table = page.getByRole('table', { name: 'Users' });
      await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
      await table.getByRole('link', { name: client.name }).click();
      await page.waitForURL(`**/users/${client.id}`);
      await page.getByRole('heading', { name: client.name, exact: true }).waitFor();
      expect(await balanceOf(page).textContent()).toBe('$0.00');

      await page.getByRole('button', { name: 'Pay user' }).click();
      const dialog = page.getByRole('dialog', { name: `Pay ${client.name}` });
      await dialog.getByLabel('Amount').fill('42.5');
      await dialog.getByLabel('Source').fill('E2E payout');
      await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.getByText(`$42.50 paid to ${client.name}`).waitFor();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="account-balance"]')?.textContent === '$42.50',
      );

      await page.getByRole('main').getByRole('link', { name: 'Transactions' }).click();
      await page.waitForURL(`**/users/${client.id}/transaction`);
      const row = page.getByRole('row', { name: /E2E payout/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('Admin payment');
      expect(await row.textContent()).toContain('+$42.50');
    } finally {
      await context.close();
    }
  });

  test('a user tops up through the sandbox page and lands on payment-success with the new balance', async () => {
    const client = await registerUser();
    const { context, page } = await newPage(browser);
    try {
      await loginThroughApi(page, client.email, client.password);
      await page.goto(`/users/${client.id}`);
      await page.getByRole('link', { name: 'Top up' }).click();
      await page.waitForURL(`**/users/${client.id}/topup`);
      await page.getByLabel('Amount (USD)').fill('25');
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await page.waitForURL(/\/payments\/sandbox\/\d+/);
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await page.waitForURL(/\/payment-success\?topup=\d+/);
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="result-balance"]')?.textContent === '$25.00',
      );
      expect(await page.getByText('Paid', { exact: true }).count()).toBe(1);
      await page.getByRole('link', { name: 'Back to the account' }).click();
      await page.waitForURL(`**/users/${client.id}`);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="account-balance"]')?.textContent === '$25.00',
      );
    } finally {
      await context.close();
    }
  });

  test('a publisher requests a withdrawal, an admin approves it, the publisher sees it paid', async () => {
    const publisher = await registerUser();
    await asAdmin(`/users/${publisher.id}/payments`, {
      payment: { sum: 300, type: 'admin_payment', source: 'E2E' },
    });
    const { context, page } = await newPage(browser);
    try {
      await loginThroughApi(page, publisher.email, publisher.password);
      await page.goto(`/users/${publisher.id}`);
      await page.getByRole('link', { name: 'Request withdrawal' }).click();
      await page.waitForURL(`**/users/${publisher.id}/withdrawals`);
      const form = page.getByRole('form', { name: 'Request a payout' });
      await form.getByText(/The minimum payout is/).waitFor();
      await form.getByLabel('Amount').fill('120');
      await form.getByLabel('Payout details').fill(`IBAN of ${publisher.name}`);
      await form.getByRole('button', { name: 'Request payout' }).click();
      const list = page.getByRole('table', { name: 'Your requests' });
      await list.getByText('Pending').waitFor();
    } finally {
      await context.close();
    }

    const adminPage = await newPage(browser);
    try {
      await loginThroughApi(adminPage.page, admin().email, admin().password);
      await adminPage.page.goto('/withdrawals');
      await adminPage.page.getByRole('button', { name: `Approve the request of ${publisher.name}` }).click();
      const dialog = adminPage.page.getByRole('dialog', { name: 'Approve and mark as paid' });
      await dialog.getByLabel('Payment reference').fill('PP-E2E-1');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await adminPage.page.getByText('The request is approved and marked as paid').waitFor();
    } finally {
      await adminPage.context.close();
    }

    const again = await newPage(browser);
    try {
      await loginThroughApi(again.page, publisher.email, publisher.password);
      await again.page.goto(`/users/${publisher.id}/withdrawals`);
      const row = again.page
        .getByRole('table', { name: 'Your requests' })
        .getByRole('row', { name: /PP-E2E-1/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('Paid');
      expect(await row.textContent()).toContain('$120.00');
      await again.page.goto(`/users/${publisher.id}`);
      await again.page.waitForFunction(
        () => document.querySelector('[data-testid="account-balance"]')?.textContent === '$180.00',
      );
    } finally {
      await again.context.close();
    }
  });

  test('an agency creates an agency and a member, and removes the member after confirming', async () => {
    const owner = await registerUser();
    await asAdmin(`/users/${owner.id}/changeroles`, { role: 'agency' });
    const { context, page } = await newPage(browser);
    try {
      await loginThroughApi(page, owner.email, owner.password);
      await page.goto(`/users/${owner.id}`);
      await page.getByRole('main').getByRole('link', { name: 'Agencies' }).click();
      await page.waitForURL(`**/users/${owner.id}/agencies`);
      await page.getByRole('link', { name: 'Create agency' }).click();
      await page.getByLabel('Title').fill('E2E Agency');
      // revenue terms are the admins': the agency sees its rate but cannot set it
      expect(await page.getByLabel('Agency rate').isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Create agency' }).click();
      await page.waitForURL(/\/agencies\/\d+$/);
      await page.getByRole('heading', { name: 'E2E Agency' }).waitFor();

      await page.getByRole('link', { name: 'Add member' }).click();
      await page.waitForURL(/\/agencies\/\d+\/create$/);
      const memberEmail = `e2e-member-${Date.now()}@example.com`;
      await page.getByLabel('Name').fill('Mia Member');
      await page.getByLabel('Email').fill(memberEmail);
      await page.getByLabel('Password', { exact: false }).first().fill('member-password-1');
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.waitForURL(/\/agencies\/\d+$/);
      const members = page.getByRole('table', { name: 'Members' });
      await members.getByText(memberEmail).waitFor();

      await page.getByRole('button', { name: 'Remove Mia Member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove the member?' });
      await dialog.getByText(/Mia Member will no longer be a member of E2E Agency/).waitFor();
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await page.getByText('This agency has no members yet').waitFor();
      expect(await members.getByText(memberEmail).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
