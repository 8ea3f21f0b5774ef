import { sql, type Transaction } from 'kysely';
import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import type { DB } from '../schema.ts';

// The row writes of one lead write (lead-write.ts binds them to its transaction and notes the
// phones they move). Values and Timeline rows have no foreign keys (migration 0006): each is
// written only for a lead the transaction created or locked, and for attributes it locked.

export interface NewValue {
  attribute_id: number;
  type: TAttributeType;
  value: string;
}

/** A stored value as a change reads it, inside the write. */
export interface StoredValue {
  id: number;
  lead_id: number;
  type: TAttributeType;
  value: string;
}

export async function insertLead(tx: Transaction<DB>, teamId: number, lead: { source_id: number; list_id: number }) {
  // The insert trigger of 0006 checks the list exists in this team and source, and locks it.
  return tx
    .insertInto('leads')
    .values({ ...lead, team_id: teamId })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Locks attributes for the transaction as a foreign key would, so one deleted meanwhile is found
 * missing instead of leaving values behind (its delete waits for this commit, then takes them).
 */
export async function lockAttributes(tx: Transaction<DB>, teamId: number, attributeIds: number[]) {
  const ids = [...new Set(attributeIds)];
  if (ids.length === 0) return true;
  const held = await tx
    .selectFrom('lead_attributes')
    .select('id')
    .where('team_id', '=', teamId)
    .where('id', 'in', ids)
    .forKeyShare()
    .execute();
  return held.length === ids.length;
}

export async function insertValues(tx: Transaction<DB>, teamId: number, leadId: number, values: NewValue[]) {
  if (values.length === 0) return;
  await tx
    .insertInto('lead_values')
    .values(values.map((v) => ({ ...v, team_id: teamId, lead_id: leadId })))
    .execute();
}

export async function updateValue(tx: Transaction<DB>, teamId: number, id: number, value: string) {
  await tx
    .updateTable('lead_values')
    .set({ value, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .execute();
}

export async function deleteValue(tx: Transaction<DB>, teamId: number, id: number) {
  await tx.deleteFrom('lead_values').where('team_id', '=', teamId).where('id', '=', id).execute();
}

/** Marks leads changed and locks them for the transaction; returns how many exist. */
export async function touchLeads(tx: Transaction<DB>, teamId: number, leadIds: number[]) {
  const r = await tx
    .updateTable('leads')
    .set({ updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('id', 'in', leadIds)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function phonesOf(tx: Transaction<DB>, teamId: number, leadIds: number[]): Promise<string[]> {
  if (leadIds.length === 0) return [];
  const rows = await tx
    .selectFrom('lead_values')
    .select('value')
    .distinct()
    .where('team_id', '=', teamId)
    .where('type', '=', 'phone')
    .where('lead_id', 'in', leadIds)
    .execute();
  return rows.map((r) => r.value);
}

/** Deletes leads (their values and Timeline go with them, the cascades of 0006); returns how many. */
export async function deleteLeads(tx: Transaction<DB>, teamId: number, ids: number[]) {
  const r = await tx.deleteFrom('leads').where('team_id', '=', teamId).where('id', 'in', ids).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Sets status where it differs; returns the leads that changed with their old status. */
export async function updateStatus(tx: Transaction<DB>, teamId: number, ids: number[], status: TLeadStatus) {
  const rows = await sql<{ id: number; old_status: TLeadStatus }>`
    update leads l set status = ${status}, updated_at = now()
    from leads old
    where old.id = l.id and l.team_id = ${teamId} and l.id = any(${ids}::bigint[]) and l.status <> ${status}
    returning l.id, old.status as old_status`.execute(tx);
  return rows.rows;
}
