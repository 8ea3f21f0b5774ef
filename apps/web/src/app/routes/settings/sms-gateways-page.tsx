import { GatewaysPanel } from '../../../features/gateways/components/gateways-panel.tsx';

/** `/settings` (its first tab): the team's SMS gateways. */
export function SmsGatewaysPage() {
  return <GatewaysPanel />;
}
