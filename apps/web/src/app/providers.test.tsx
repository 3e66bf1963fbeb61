import { Select } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { i18n } from '../lib/i18n.ts';
import { AppProviders } from './providers.tsx';

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

// Mantine keeps the × out of the tab order and the accessibility tree (Backspace clears a focused field), so it
// is found by its label; the name is what a pointer user's assistive tools (voice control) read of it
test("a clearable field's × is named in the user's language (it had no name)", async () => {
  render(
    <AppProviders env="test">
      <Select label="Site" data={['a', 'b']} defaultValue="a" clearable />
    </AppProviders>,
  );
  expect(await screen.findByLabelText('Clear the field')).toBeInTheDocument();
  await act(() => i18n.changeLanguage('ru'));
  expect(await screen.findByLabelText('Очистить поле')).toBeInTheDocument();
});
