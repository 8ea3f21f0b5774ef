import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import type { DB } from '../schema.ts';
import { bumpDataVersion } from './data-version.ts';
import { retryOnDeadlock } from './deadlock-retry.ts';
import { holdTeamDuplicates, recountHolders, removingPhones } from './lead-duplicates.ts';
import { banPhones, markClicked, type OptOut } from './lead-opt-outs.ts';
import * as rows from './lead-rows.ts';
import { appendTimeline, type TimelineEntry } from './lead-timeline.ts';

export type { NewValue, StoredValue } from './lead-rows.ts';
export type { TimelineEntry } from './lead-timeline.ts';
export type { OptOut, OptOutReason } from './lead-opt-outs.ts';
export { appendTimelineBulk } from './lead-timeline.ts';

export interface LeadWriteOptions {
  /**
   * The write may add or remove phones: the team's duplicate lock is taken before any lead is
   * locked, and the duplicates of the phones' holders are recounted before the commit.
   */
  phones: boolean;
  /** Locks that come before the duplicate lock (a list delete locks the imports it ends). */
  first?: (tx: Transaction<DB>) => Promise<void>;
}

/**
 * One write to a team's leads, in its transaction. Its methods write rows and note the phones
 * they move; what every write needs at the end (recount, data version) is done by `withLeadWrite`.
 */
export interface LeadWrite {
  readonly tx: Transaction<DB>;
  readonly teamId: number;
  /** Nothing a lead page or a count shows changed after all: the data version stays as it was. */
  unchanged(): void;
  insertLead(lead: { source_id: number; list_id: number }): Promise<{ id: number }>;
  /** Locks the attributes, then adds the values; false (nothing written) when one is gone. */
  addValues(leadId: number, values: rows.NewValue[]): Promise<boolean>;
  changeValue(value: rows.StoredValue, to: string): Promise<void>;
  removeValue(value: rows.StoredValue): Promise<void>;
  /** Locks leads and marks them changed; returns how many exist. A value change locks its lead first. */
  touchLeads(leadIds: number[]): Promise<number>;
  /** Deletes leads with their values and Timeline; returns how many. */
  deleteLeads(ids: number[]): Promise<number>;
  /**
   * Sets the status of the leads where it differs, with a Timeline entry each by `userId` (null:
   * the system); returns the leads that changed and their old status.
   */
  setStatus(
    ids: number[],
    status: TLeadStatus,
    userId: number | null,
  ): Promise<Array<{ id: number; old_status: TLeadStatus }>>;
  appendTimeline(userId: number | null, entries: TimelineEntry[]): Promise<void>;
  /**
   * Opts phones out for the team (a STOP reply, an unsubscribe link: see `lead-opt-outs.ts`) and
   * blacklists every lead holding them; returns those leads (none: the caller may call `unchanged`).
   */
  banPhones(optOut: OptOut): Promise<number[]>;
  /** Marks each click's phone `clicked` with a Timeline entry; how many were (a gone lead's click is not). */
  markClicked(clicks: Array<{ leadId: number; phone: string | null; entry: TimelineEntry }>): Promise<number>;
  /**
   * Runs `remove`, a set-based delete taking with it the phones `phones` selects (a query of a
   * `value` column), then recounts the leads left holding them (see `removingPhones`).
   */
  removingPhones<T>(phones: RawBuilder<unknown>, remove: () => Promise<T>): Promise<T>;
}

/**
 * The lead-write contract (docs/architecture.md, "Lead-write contract") for every write but an
 * import's chunk (staged-leads.ts): one transaction that takes `first`, then the team's duplicate
 * lock when phones may move, lets `fn` write through the handle, recounts the duplicates of the
 * phones it moved, and bumps the team's data version last (its row lock queues the team's writers
 * only from there to the commit). A transaction PostgreSQL ends to break a deadlock runs again
 * from the start, so `fn` must be safe to run twice (all it did was rolled back).
 */
export function withLeadWrite<T>(
  db: Kysely<DB>,
  teamId: number,
  options: LeadWriteOptions,
  fn: (write: LeadWrite) => Promise<T>,
): Promise<T> {
  return retryOnDeadlock(() =>
    db.transaction().execute(async (tx) => {
      if (options.first) await options.first(tx);
      if (options.phones) await holdTeamDuplicates(tx, teamId);
      const phones = new Set<string>();
      const leadIds = new Set<number>();
      let changed = true;
      const moved = (values: string[], leads: number[] = []) => {
        if (values.length === 0 && leads.length === 0) return;
        // A recount without the lock could miss a phone another write commits meanwhile.
        if (!options.phones) throw new Error('A lead write that moves phones must be opened with `phones: true`.');
        for (const v of values) phones.add(v);
        for (const id of leads) leadIds.add(id);
      };
      const phoneOf = (v: rows.StoredValue, ...more: string[]) => (v.type === 'phone' ? [v.value, ...more] : []);

      const write: LeadWrite = {
        tx,
        teamId,
        unchanged: () => {
          changed = false;
        },
        insertLead: (lead) => rows.insertLead(tx, teamId, lead),
        async addValues(leadId, values) {
          if (
            !(await rows.lockAttributes(
              tx,
              teamId,
              values.map((v) => v.attribute_id),
            ))
          )
            return false;
          await rows.insertValues(tx, teamId, leadId, values);
          const added = values.filter((v) => v.type === 'phone').map((v) => v.value);
          if (added.length > 0) moved(added, [leadId]);
          return true;
        },
        async changeValue(value, to) {
          await rows.updateValue(tx, teamId, value.id, to);
          const involved = phoneOf(value, to);
          if (involved.length > 0) moved(involved, [value.lead_id]);
        },
        async removeValue(value) {
          await rows.deleteValue(tx, teamId, value.id);
          const involved = phoneOf(value);
          if (involved.length > 0) moved(involved, [value.lead_id]);
        },
        touchLeads: (ids) => rows.touchLeads(tx, teamId, ids),
        async deleteLeads(ids) {
          // Their phones, read before they go: afterwards no row says which they were.
          const held = await rows.phonesOf(tx, teamId, ids);
          const deleted = await rows.deleteLeads(tx, teamId, ids);
          moved(held);
          return deleted;
        },
        async setStatus(ids, status, userId) {
          const changedRows = await rows.updateStatus(tx, teamId, ids, status);
          await appendTimeline(
            tx,
            teamId,
            userId,
            changedRows.map((r) => ({
              lead_id: r.id,
              type: 'status',
              action: 'status_changed',
              diff_log: [
                {
                  action: 'changed',
                  lead_attribute_name: 'status',
                  lead_attribute_value: status,
                  value_from: r.old_status,
                  value_to: status,
                },
              ],
            })),
          );
          return changedRows;
        },
        appendTimeline: (userId, entries) => appendTimeline(tx, teamId, userId, entries),
        async banPhones(optOut) {
          const ids = await banPhones(
            tx,
            teamId,
            optOut,
            (leads) => rows.touchLeads(tx, teamId, leads),
            (entries) => appendTimeline(tx, teamId, null, entries),
          );
          if (ids.length > 0) await write.setStatus(ids, 'blacklisted', null);
          return ids;
        },
        markClicked: (clicks) =>
          markClicked(tx, teamId, clicks, (entries) => appendTimeline(tx, teamId, null, entries)),
        removingPhones(phonesQuery, remove) {
          if (!options.phones) throw new Error('A lead write that moves phones must be opened with `phones: true`.');
          return removingPhones(tx, teamId, phonesQuery, remove);
        },
      };

      const result = await fn(write);
      await recountHolders(tx, teamId, [...phones], [...leadIds]);
      if (changed) await bumpDataVersion(tx, teamId);
      return result;
    }),
  );
}
