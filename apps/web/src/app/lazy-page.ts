import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A page loaded with its own chunk when first shown, so the first screen downloads only the shell
 * and that page (DESIGN §5: initial JS ≤ 400 kB gzip). Pages are named exports; React.lazy wants a
 * default one.
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
  // biome-ignore lint/suspicious/noExplicitAny: any page's props pass through unchanged
): LazyExoticComponent<ComponentType<any>> {
  // biome-ignore lint/suspicious/noExplicitAny: see above
  return lazy(async () => ({ default: (await load())[name] as ComponentType<any> }));
}
