import { normalizePhone } from '@herald/shared/leads/phone';

/** A gateway the campaign may send through, with its own sender (a number or a name) if it has one. */
export interface SendingGatewayOption {
  value: string;
  label: string;
  from: string | null;
}

/** The team's active alpha names. */
export interface AlphaNameOption {
  name: string;
  default: boolean;
}

/** A gateway's own sender as the server keeps it: a number in E.164, a name as written. */
export function gatewaySenderOf(gateway: SendingGatewayOption | undefined): string | null {
  const from = gateway?.from?.trim();
  if (!from) return null;
  return (/^[+\d][\d\s()-]*$/.test(from) ? normalizePhone(from) : null) ?? from;
}

/** Every sender the campaign may use through this gateway: the alpha names, then the gateway's own. */
export function sendersFor(gateway: SendingGatewayOption | undefined, names: AlphaNameOption[]): string[] {
  const own = gatewaySenderOf(gateway);
  const list = names.map((n) => n.name);
  return own && !list.some((n) => n.toLowerCase() === own.toLowerCase()) ? [...list, own] : list;
}

/**
 * The sender a gateway gets when the one held does not go with it: the default alpha name, else
 * the only sender there is, else none (the gateway's own, if it has one, goes out anyway).
 */
export function senderAfterGateway(
  current: string,
  gateway: SendingGatewayOption | undefined,
  names: AlphaNameOption[],
): string {
  const senders = sendersFor(gateway, names);
  if (current && senders.includes(current)) return current;
  const fallback = names.find((n) => n.default)?.name;
  if (fallback) return fallback;
  return senders.length === 1 ? senders[0] : '';
}
