import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error.ts';
import { notifyError } from './notify.ts';
import { describeApiError } from './describe-api-error.ts';

/**
 * One client for the app. Statuses with a global meaning (401, 403, 422, 429) are handled by the
 * API client; any other mutation failure is toasted here unless the mutation handles it itself.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      retry: (failureCount, error) => {
        if (error instanceof ApiError && error.status < 500) return false;
        return failureCount < 2;
      },
    },
  },
  mutationCache: new MutationCache({
    onError(error, _variables, _context, mutation) {
      if (mutation.meta?.handlesErrors) return;
      if (error instanceof ApiError && error.handled) return;
      notifyError(describeApiError(error));
    },
  }),
});

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { handlesErrors?: boolean };
  }
}
