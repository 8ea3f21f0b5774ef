import { ShortUrlDomainsPanel } from '../../../features/short-links/components/short-url-domains-panel.tsx';

/** `/settings/short-url-domains`. */
export function ShortUrlDomainsTab() {
  return <ShortUrlDomainsPanel />;
}
