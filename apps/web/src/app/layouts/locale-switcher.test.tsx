import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('locale switcher', () => {
  test('lists the six languages by native name and switches the interface to Russian', async () => {
    mockApi({});
    renderApp('/login');
    const user = userEvent.setup();
    await waitFor(() => expect(document.title).toBe('Sign in · AdPlatform'));
    await user.click(await screen.findByRole('button', { name: /^EN – Language: English$/ }));
    const names = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(names).toEqual(['English', 'Русский', 'Українська', 'Deutsch', 'Français', 'Português']);

    await user.click(screen.getByRole('menuitem', { name: 'Русский' }));

    expect(await screen.findByRole('button', { name: 'Войти' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Пароль/)).toBeInTheDocument();
    expect(localStorage.getItem('locale')).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
    await waitFor(() => expect(document.title).toBe('Войти · AdPlatform'));
  });
});
