import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router/dom';
import { i18n } from '../lib/i18n.ts';
import { queryClient } from '../lib/query-client.ts';
import { router } from './router.tsx';
import { themeFor } from './theme.ts';

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <Themed />
    </I18nextProvider>
  );
}

/** Mantine with the theme of the current language, and what lives inside it. */
function Themed() {
  const { t } = useTranslation();
  const label = t('togglePassword');
  const theme = useMemo(() => themeFor(label), [label]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {/* Spec section 8: toasts bottom-right, closing after 3 seconds. */}
      <Notifications position="bottom-right" autoClose={3000} limit={5} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
