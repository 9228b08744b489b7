import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { startLocale } from '@/i18n/i18n';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The shell's texts in the language shown come first (issue 23): a catalog of a few KB, fetched with the route's chunk.
void startLocale(['common']).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
