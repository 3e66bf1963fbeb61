import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { failure, mockApi, validationFailure } from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';

describe('error toasts', () => {
  test('a 422 shows one red toast titled Error per entry, with its detail', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        validationFailure([
          { field: 'email', detail: 'This email is already registered', code: 'email_taken' },
          { field: 'phone', detail: 'Phone must be a valid phone number', code: 'phone' },
        ]),
    });
    renderApp('/register');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Name/), 'Ada');
    await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'long-enough-password');
    await user.click(screen.getByLabelText('I agree to the privacy policy'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    const toasts = await screen.findAllByRole('alert');
    const errorToasts = toasts.filter((toast) => within(toast).queryByText('Error'));
    expect(errorToasts).toHaveLength(2);
    for (const toast of errorToasts) expect(toast.getAttribute('style')).toContain('--mantine-color-red');
    expect(within(errorToasts[0]!).getByText('This email is already registered')).toBeInTheDocument();
    expect(within(errorToasts[1]!).getByText('Phone must be a valid phone number')).toBeInTheDocument();
  });

  test('an unexpected failure shows the generic message', async () => {
    mockApi({ 'POST /api/auth/forgot-password': () => failure(500, 'generic', 'boom') });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('There was a mistake during this operation')).toBeInTheDocument();
  });
});
