import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { initI18n } from './lib/i18n.ts';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// Render once the language is known, so the first paint is already translated.
void initI18n().finally(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
