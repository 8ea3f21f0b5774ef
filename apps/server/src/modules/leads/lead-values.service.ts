import type { TAttributeType, TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import { message } from '@herald/shared/common/messages';
import type { PhoneRule } from '@herald/shared/leads/phone';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { LeadWrite } from '../../db/lead-store/lead-write.ts';
import { AppError } from '../../http/app-error.ts';
import type { LeadsRepository } from './leads.repository.ts';

/** The spec's value endpoints: lead-phones for phone attributes, lead-emails for e-mail, lead-values for the rest. */
export type ValueKind = 'lead-values' | 'lead-phones' | 'lead-emails';

function kindOf(type: TAttributeType): ValueKind {
  return type === 'phone' ? 'lead-phones' : type === 'email' ? 'lead-emails' : 'lead-values';
}

interface Deps {
  repo: LeadsRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  phoneRule: (teamId: number) => Promise<PhoneRule>;
}

/** Adding, editing and removing one value of a lead, each written to the Timeline. */
export function createLeadValuesService({ repo, attributes, phoneRule }: Deps) {
  async function normalize(teamId: number, type: TAttributeType, raw: string) {
    const check = normalizeLeadValue(type, raw, type === 'phone' ? await phoneRule(teamId) : undefined);
    if (!check.ok) throw AppError.field('value', check.message.code, check.message.params);
    return check.value;
  }

  async function requireValue(teamId: number, id: number, kind: ValueKind) {
    const value = await repo.findValue(teamId, id);
    if (!value || kindOf(value.type) !== kind) throw new AppError('not_found', message('value_not_found'));
    return value;
  }

  interface Change {
    action: 'added' | 'changed' | 'removed';
    attributeName: string;
    from: string | null;
    to: string | null;
  }

  /**
   * Applies one value change in a lead write (the lead store takes the team's duplicate lock first
   * when a phone is involved, and recounts and bumps the version after) with what every change
   * needs: the lead's updated_at and a Timeline entry. The lead's row comes next, which every
   * change of the lead's values takes: `step` reads the value as it now stands, after any change
   * that got there first (two edits of one phone read before either wrote would recount the wrong
   * phone), applies the change and says what it did, or null when nothing is left to do.
   */
  async function writeChange(
    user: AuthUser,
    leadId: number,
    phone: boolean,
    step: (w: LeadWrite) => Promise<Change | null>,
  ) {
    await repo.write(user.teamId, { phones: phone }, async (w) => {
      // Values have no foreign key (migration 0006), so a lead deleted meanwhile must stop the
      // change rather than leave a value behind.
      if ((await w.touchLeads([leadId])) === 0) throw new AppError('not_found', message('lead_not_found'));
      const change = await step(w);
      if (!change) {
        w.unchanged();
        return;
      }
      const entry = {
        action: change.action,
        lead_attribute_name: change.attributeName,
        lead_attribute_value: change.to ?? change.from,
        value_from: change.from,
        value_to: change.to,
      };
      await w.appendTimeline(user.id, [
        { lead_id: leadId, type: 'value', action: `value_${change.action}`, diff_log: [entry] },
      ]);
    });
  }

  /** The value as it stands inside the change's transaction; gone meanwhile: not found. */
  async function valueNow(teamId: number, id: number, w: LeadWrite) {
    const value = await repo.findValue(teamId, id, w.tx);
    if (!value) throw new AppError('not_found', message('value_not_found'));
    return value;
  }

  return {
    async add(user: AuthUser, leadId: number, attributeId: number, kind: ValueKind, raw: string) {
      const teamId = user.teamId;
      const lead = await repo.findById(teamId, leadId);
      const attribute = (await attributes(teamId)).find((a) => a.id === attributeId);
      if (!lead || !attribute)
        throw new AppError('not_found', message(!lead ? 'lead_not_found' : 'attribute_not_found'));
      if (kindOf(attribute.type) !== kind)
        throw AppError.field('value', 'value_kind_mismatch', { kind: kindOf(attribute.type), type: attribute.type });
      const value = await normalize(teamId, attribute.type, raw);
      await writeChange(user, leadId, attribute.type === 'phone', async (w) => {
        const existing = await repo.valuesOf(teamId, [leadId], w.tx);
        if (existing.some((v) => v.attribute.id === attributeId && v.value === value)) {
          throw AppError.field('value', 'value_exists');
        }
        if (!(await w.addValues(leadId, [{ attribute_id: attributeId, type: attribute.type, value }]))) {
          throw new AppError('not_found', message('attribute_not_found'));
        }
        return { action: 'added', attributeName: attribute.name, from: null, to: value };
      });
    },

    async update(user: AuthUser, id: number, kind: ValueKind, raw: string) {
      const teamId = user.teamId;
      const found = await requireValue(teamId, id, kind);
      const value = await normalize(teamId, found.type, raw);
      if (value === found.value) return found.lead_id;
      await writeChange(user, found.lead_id, found.type === 'phone', async (w) => {
        const current = await valueNow(teamId, id, w);
        if (value === current.value) return null;
        await w.changeValue(current, value);
        return { action: 'changed', attributeName: current.attribute_name, from: current.value, to: value };
      });
      return found.lead_id;
    },

    async remove(user: AuthUser, id: number, kind: ValueKind) {
      const teamId = user.teamId;
      const found = await requireValue(teamId, id, kind);
      await writeChange(user, found.lead_id, found.type === 'phone', async (w) => {
        const current = await valueNow(teamId, id, w);
        const remaining = (await repo.valuesOf(teamId, [found.lead_id], w.tx)).filter((v) => v.id !== id);
        if (remaining.length === 0) throw AppError.field('value', 'last_value');
        await w.removeValue(current);
        return { action: 'removed', attributeName: current.attribute_name, from: current.value, to: null };
      });
      return found.lead_id;
    },
  };
}

export type LeadValuesService = ReturnType<typeof createLeadValuesService>;
