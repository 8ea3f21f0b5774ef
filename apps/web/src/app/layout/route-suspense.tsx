import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { LoadingState } from '../../components/page-states.tsx';

/** Where a lazily loaded page (app/lazy-page.ts) waits for its chunk: inside its layout's frame. */
export function RouteOutlet() {
  return (
    <Suspense fallback={<LoadingState rows={8} />}>
      <Outlet />
    </Suspense>
  );
}
