import type { TGatewayField } from './gateway-types.ts';

/** Builders of the gateway types' fields, and the fields several types share. */
export const text = (
  key: string,
  label: string,
  required = false,
  extra: Partial<TGatewayField> = {},
): TGatewayField => ({
  key,
  label,
  kind: 'text',
  required,
  secret: false,
  ...extra,
});
export const secret = (key: string, label: string, required = true): TGatewayField => ({
  key,
  label,
  kind: 'secret',
  required,
  secret: true,
});
export const url = (key: string, label: string, required = false, def?: string): TGatewayField => ({
  key,
  label,
  kind: 'url',
  required,
  secret: false,
  ...(def ? { default: def } : {}),
});
export const percent = (key: string, label: string, def: string): TGatewayField => ({
  key,
  label,
  kind: 'number',
  required: true,
  secret: false,
  default: def,
  min: 0,
  max: 100,
});
/** Where the provider's API is; empty means the server's default for the type (env, else the real one). */
export const baseUrl = url('base_url', 'API base URL');
/** The account's own sending rate where it is below the provider's (`capabilities.requestsPerSecond`). */
export const partsPerSecond: TGatewayField = {
  key: 'parts_per_second',
  label: "SMS parts a second (empty: the provider's limit)",
  kind: 'number',
  required: false,
  secret: false,
  min: 1,
  max: 10_000,
};

/** The lookup engine's rate for this gateway (decision 040); empty: the type's requests a second. */
export const lookupsPerSecond: TGatewayField = {
  key: 'lookups_per_second',
  label: "Lookups a second (empty: the provider's limit)",
  kind: 'number',
  required: false,
  secret: false,
  min: 1,
  max: 10_000,
};
