import type { TAttributeType, TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import type { PhoneRule } from '@herald/shared/leads/phone';
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
  phoneRule: (teamId: number) => Promise<PhoneRule>;
}

/** Adding, editing and removing one value of a lead, each written to the Timeline. */
export function createLeadValuesService({ repo, log, attributes, phoneRule }: Deps) {
  async function normalize(teamId: number, type: TAttributeType, raw: string) {
    const check = normalizeLeadValue(type, raw, type === 'phone' ? await phoneRule(teamId) : undefined);
    if (!check.ok) throw AppError.field('value', check.message);
    return check.value;
  }

  async function requireValue(teamId: number, id: number, kind: ValueKind) {
    const value = await repo.findValue(teamId, id);
    if (!value || kindOf(value.type) !== kind) throw new AppError('not_found', 'Value not found.');
    return value;
  }

  type Tx = Parameters<Parameters<LeadsRepository['transaction']>[0]>[0];
  interface Change {
    action: 'added' | 'changed' | 'removed';
    attributeName: string;
    from: string | null;
    to: string | null;
    /** The phones whose holders' duplicates the change moves. */
    phones: string[];
  }

  /**
   * Applies one value change in a transaction with what every change needs: the lead's updated_at,
   * a Timeline entry, duplicates for the phones involved, and fresh counts. The team's duplicate
   * lock comes first when a phone is involved (see `holdTeamDuplicates`), then the lead's row, which
   * every change of the lead's values takes: `step` reads the value as it now stands, after any
   * change that got there first (two edits of one phone read before either wrote would recount the
   * wrong phone), applies the change and says what it did, or null when nothing is left to do.
   */
  async function writeChange(user: AuthUser, leadId: number, phone: boolean, step: (tx: Tx) => Promise<Change | null>) {
    const teamId = user.teamId;
    await repo.transaction(async (tx) => {
      if (phone) await repo.holdDuplicates(teamId, tx);
      // Values have no foreign key (migration 0006), so a lead deleted meanwhile must stop the
      // change rather than leave a value behind.
      if ((await repo.touch(teamId, [leadId], tx)) === 0) throw new AppError('not_found', 'Lead not found.');
      const change = await step(tx);
      if (!change) return;
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
        [{ lead_id: leadId, type: 'value', action: `value_${change.action}`, diff_log: [entry] }],
        tx,
      );
      if (change.phones.length > 0) await repo.refreshDuplicates(teamId, change.phones, [leadId], tx);
      await bumpDataVersion(tx, teamId);
    });
  }

  /** The value as it stands inside the change's transaction; gone meanwhile: not found. */
  async function valueNow(teamId: number, id: number, tx: Tx) {
    const value = await repo.findValue(teamId, id, tx);
    if (!value) throw new AppError('not_found', 'Value not found.');
    return value;
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
      const phone = attribute.type === 'phone';
      await writeChange(user, leadId, phone, async (tx) => {
        const existing = await repo.valuesOf(teamId, [leadId], tx);
        if (existing.some((v) => v.attribute.id === attributeId && v.value === value)) {
          throw AppError.field('value', 'The lead already has this value.');
        }
        if (!(await repo.lockAttributes(teamId, [attributeId], tx))) {
          throw new AppError('not_found', 'Attribute not found.');
        }
        await repo.insertValues(teamId, leadId, [{ attribute_id: attributeId, type: attribute.type, value }], tx);
        return { action: 'added', attributeName: attribute.name, from: null, to: value, phones: phone ? [value] : [] };
      });
    },

    async update(user: AuthUser, id: number, kind: ValueKind, raw: string) {
      const teamId = user.teamId;
      const found = await requireValue(teamId, id, kind);
      const value = await normalize(teamId, found.type, raw);
      if (value === found.value) return found.lead_id;
      const phone = found.type === 'phone';
      await writeChange(user, found.lead_id, phone, async (tx) => {
        const current = await valueNow(teamId, id, tx);
        if (value === current.value) return null;
        await repo.updateValue(teamId, id, value, tx);
        return {
          action: 'changed',
          attributeName: current.attribute_name,
          from: current.value,
          to: value,
          phones: phone ? [current.value, value] : [],
        };
      });
      return found.lead_id;
    },

    async remove(user: AuthUser, id: number, kind: ValueKind) {
      const teamId = user.teamId;
      const found = await requireValue(teamId, id, kind);
      await writeChange(user, found.lead_id, found.type === 'phone', async (tx) => {
        const current = await valueNow(teamId, id, tx);
        const remaining = (await repo.valuesOf(teamId, [found.lead_id], tx)).filter((v) => v.id !== id);
        if (remaining.length === 0)
          throw AppError.field('value', 'A lead keeps at least one value; delete the lead instead.');
        await repo.deleteValue(teamId, id, tx);
        return {
          action: 'removed',
          attributeName: current.attribute_name,
          from: current.value,
          to: null,
          phones: current.type === 'phone' ? [current.value] : [],
        };
      });
      return found.lead_id;
    },
  };
}

export type LeadValuesService = ReturnType<typeof createLeadValuesService>;
