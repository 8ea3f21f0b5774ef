import type { TAttributeType, TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import type { AuthUser } from '../../auth/authenticate.ts';
import { bumpDataVersion } from '../../db/data-version.ts';
import { AppError } from '../../http/app-error.ts';
import type { LeadLogRepository } from './lead-log.repository.ts';
import type { LeadsRepository } from './leads.repository.ts';

/** The spec's value endpoints: lead-phones for phone attributes, lead-emails for e-mail, lead-values for the rest. */
export type ValueKind = 'lead-values' | 'lead-phones' | 'lead-emails';

function kindOf(type: TAttributeType): ValueKind {
  return type === 'phone' ? 'lead-phones' : type === 'email' ? 'lead-emails' : 'lead-values';
}

interface Deps {
  repo: LeadsRepository;
  log: LeadLogRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  ignoredPhones: (teamId: number) => Promise<RegExp[]>;
}

/** Adding, editing and removing one value of a lead, each written to the Timeline. */
export function createLeadValuesService({ repo, log, attributes, ignoredPhones }: Deps) {
  async function normalize(teamId: number, type: TAttributeType, raw: string) {
    const check = normalizeLeadValue(type, raw, type === 'phone' ? await ignoredPhones(teamId) : []);
    if (!check.ok) throw AppError.field('value', check.message);
    return check.value;
  }

  async function requireValue(teamId: number, id: number, kind: ValueKind) {
    const value = await repo.findValue(teamId, id);
    if (!value || kindOf(value.type) !== kind) throw new AppError('not_found', 'Value not found.');
    return value;
  }

  /**
   * Applies one value change in a transaction with what every change needs: the lead's updated_at,
   * a Timeline entry, duplicates for the phones involved, and fresh counts.
   */
  async function writeChange(
    user: AuthUser,
    change: {
      leadId: number;
      action: 'added' | 'changed' | 'removed';
      attributeName: string;
      from: string | null;
      to: string | null;
      phones: string[];
    },
    apply: (tx: Parameters<Parameters<LeadsRepository['transaction']>[0]>[0]) => Promise<void>,
  ) {
    const teamId = user.teamId;
    await repo.transaction(async (tx) => {
      if (change.phones.length > 0) await repo.holdDuplicates(teamId, tx);
      // Locks the lead next: values have no foreign key (migration 0006), so a lead deleted
      // meanwhile must stop the change rather than leave a value behind.
      if ((await repo.touch(teamId, [change.leadId], tx)) === 0) throw new AppError('not_found', 'Lead not found.');
      await apply(tx);
      const entry = {
        action: change.action,
        lead_attribute_name: change.attributeName,
        lead_attribute_value: change.to ?? change.from,
        value_from: change.from,
        value_to: change.to,
      };
      await log.add(
        teamId,
        user.id,
        [{ lead_id: change.leadId, type: 'value', action: `value_${change.action}`, diff_log: [entry] }],
        tx,
      );
      if (change.phones.length > 0) await repo.refreshDuplicates(teamId, change.phones, [change.leadId], tx);
      await bumpDataVersion(tx, teamId);
    });
  }

  return {
    async add(user: AuthUser, leadId: number, attributeId: number, kind: ValueKind, raw: string) {
      const teamId = user.teamId;
      const lead = await repo.findById(teamId, leadId);
      const attribute = (await attributes(teamId)).find((a) => a.id === attributeId);
      if (!lead || !attribute) throw new AppError('not_found', !lead ? 'Lead not found.' : 'Attribute not found.');
      if (kindOf(attribute.type) !== kind)
        throw AppError.field('value', `Use ${kindOf(attribute.type)} for a ${attribute.type} attribute.`);
      const value = await normalize(teamId, attribute.type, raw);
      const existing = await repo.valuesOf(teamId, [leadId]);
      if (existing.some((v) => v.attribute.id === attributeId && v.value === value)) {
        throw AppError.field('value', 'The lead already has this value.');
      }
      const phones = attribute.type === 'phone' ? [value] : [];
      await writeChange(
        user,
        { leadId, action: 'added', attributeName: attribute.name, from: null, to: value, phones },
        async (tx) => {
          if (!(await repo.lockAttributes(teamId, [attributeId], tx))) {
            throw new AppError('not_found', 'Attribute not found.');
          }
          await repo.insertValues(teamId, leadId, [{ attribute_id: attributeId, type: attribute.type, value }], tx);
        },
      );
    },

    async update(user: AuthUser, id: number, kind: ValueKind, raw: string) {
      const current = await requireValue(user.teamId, id, kind);
      const value = await normalize(user.teamId, current.type, raw);
      if (value === current.value) return current.lead_id;
      const phones = current.type === 'phone' ? [current.value, value] : [];
      await writeChange(
        user,
        {
          leadId: current.lead_id,
          action: 'changed',
          attributeName: current.attribute_name,
          from: current.value,
          to: value,
          phones,
        },
        (tx) => repo.updateValue(user.teamId, id, value, tx),
      );
      return current.lead_id;
    },

    async remove(user: AuthUser, id: number, kind: ValueKind) {
      const current = await requireValue(user.teamId, id, kind);
      const remaining = (await repo.valuesOf(user.teamId, [current.lead_id])).filter((v) => v.id !== id);
      if (remaining.length === 0)
        throw AppError.field('value', 'A lead keeps at least one value; delete the lead instead.');
      const phones = current.type === 'phone' ? [current.value] : [];
      await writeChange(
        user,
        {
          leadId: current.lead_id,
          action: 'removed',
          attributeName: current.attribute_name,
          from: current.value,
          to: null,
          phones,
        },
        (tx) => repo.deleteValue(user.teamId, id, tx),
      );
      return current.lead_id;
    },
  };
}

export type LeadValuesService = ReturnType<typeof createLeadValuesService>;
