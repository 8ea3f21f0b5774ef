import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TLead } from '@herald/shared/leads/leads.schemas';

/** Phone and Email columns cannot be hidden (spec section 2). */
export function isLockedColumn(attribute: TLeadAttribute) {
  return attribute.type === 'phone' || attribute.type === 'email';
}

export const attributeColumn = (attribute: TLeadAttribute) => `attr:${attribute.id}`;

/** Several values of one attribute are shown joined with '; '. */
export function valuesOf(lead: TLead, attributeId: number) {
  return lead.lead_values
    .filter((v) => v.attribute.id === attributeId)
    .map((v) => v.value)
    .join('; ');
}
