import { GATEWAY_TYPE_INFO, type TGatewayType } from '@herald/shared/gateways/gateway-types';
import { message, type TMessage } from '@herald/shared/common/messages';
import { AppError } from '../../http/app-error.ts';

/**
 * Splits what a form sent into the fields the type has: non-secret `params` and sealed `secrets`.
 * Unknown keys are dropped; a secret left empty keeps the stored one (the form never sees it).
 */
export function readGatewayFields(
  type: TGatewayType,
  input: Record<string, string>,
  storedSecrets: Record<string, string>,
): { params: Record<string, string>; secrets: Record<string, string> } {
  const params: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const errors: Record<string, TMessage[]> = {};
  const refuse = (key: string, code: 'gateway_field_required' | 'gateway_field_invalid', label: string) => {
    errors[`credentials.${key}`] = [message(code, { field: label })];
  };
  for (const field of GATEWAY_TYPE_INFO[type].fields) {
    const given = (input[field.key] ?? '').trim();
    const value = field.secret && given === '' ? (storedSecrets[field.key] ?? '') : given || (field.default ?? '');
    if (value === '') {
      if (field.required) refuse(field.key, 'gateway_field_required', field.label);
      continue;
    }
    if (!valid(field, value)) {
      refuse(field.key, 'gateway_field_invalid', field.label);
      continue;
    }
    if (field.secret) secrets[field.key] = value;
    else params[field.key] = value;
  }
  if (Object.keys(errors).length > 0) throw AppError.fields(errors);
  return { params, secrets };
}

function valid(field: (typeof GATEWAY_TYPE_INFO)[TGatewayType]['fields'][number], value: string): boolean {
  switch (field.kind) {
    case 'number': {
      const n = Number(value);
      return (
        Number.isFinite(n) && (field.min === undefined || n >= field.min) && (field.max === undefined || n <= field.max)
      );
    }
    case 'url':
      return /^https?:\/\//i.test(value) && URL.canParse(value);
    case 'select':
      return (field.options ?? []).some((o) => o.key === value);
    default:
      return true;
  }
}
