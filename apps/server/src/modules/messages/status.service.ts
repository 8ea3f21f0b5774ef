import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import { canMoveStatus, isFinalStatus, type TMessageStatus } from '@herald/shared/gateways/message-status';
import { isStopMessage } from '@herald/shared/messages/messages.schemas';
import { normalizePhone } from '@herald/shared/leads/phone';
import { sql, type Transaction } from 'kysely';
import { appendTimeline, type TimelineEntry } from '../../db/lead-store/lead-timeline.ts';
import { withLeadWrite } from '../../db/lead-store/lead-write.ts';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { DB } from '../../db/schema.ts';
import { createGroupCommit } from './group-commit.ts';
import type { MessagesDeps } from './messages.deps.ts';
import type { MessageRow, MessagesRepository } from './messages.repository.ts';

export const POLL_JOB = 'messages-poll-status';
/** Polls of one message before it is left to its last status (about three days at the cap). */
const POLL_LIMIT = 160;
const pollDelaySeconds = (attempt: number) => Math.min(30 * 2 ** attempt, 1_800);

interface ReportBatch {
  teamId: number;
  gatewayId: number;
  reports: TStatusReport[];
}

export interface PollJob {
  teamId: number;
  messageId: number;
  attempt: number;
}

/**
 * Everything that moves a message after it was handed over: delivery reports (webhook or poll),
 * with the rank rule so repeated and late reports change nothing; replies, where an opt-out word
 * blacklists the phone for the team. Each change lands on the lead's Timeline and goes out live.
 */
export function createStatusService(deps: MessagesDeps & { repo: MessagesRepository }) {
  const { db, repo } = deps;

  /** Appends to the Timeline of the leads that still exist (locked, so none is deleted meanwhile). */
  async function timeline(tx: Transaction<DB>, teamId: number, entries: TimelineEntry[], userId: number | null = null) {
    if (entries.length === 0) return;
    const ids = [...new Set(entries.map((e) => e.lead_id))];
    const alive = await tx
      .selectFrom('leads')
      .select('id')
      .where('team_id', '=', teamId)
      .where('id', 'in', ids)
      .forShare()
      .execute();
    const keep = new Set(alive.map((r) => Number(r.id)));
    await appendTimeline(
      tx,
      teamId,
      userId,
      entries.filter((e) => keep.has(e.lead_id)),
    );
  }

  const statusEvent = (row: MessageRow) => ({
    type: 'MessageStatus' as const,
    payload: {
      message_id: Number(row.id),
      lead_id: row.lead_id === null ? null : Number(row.lead_id),
      state: row.state,
      status: row.status,
    },
  });

  async function published(teamId: number, row: MessageRow) {
    await deps.bus.publish({ teamId }, statusEvent(row));
  }

  /**
   * Applies the reports of many callbacks in one transaction: per gateway one locking read of the
   * rows they name, the rank rule folded over the reports in arrival order (so a late or repeated
   * report changes nothing, within a batch as across batches), one write of the moves and their
   * Timeline entries.
   */
  async function applyBatch(batches: ReportBatch[]): Promise<void> {
    const moved = await db.transaction().execute(async (tx) => {
      const out = new Map<number, MessageRow>();
      const groups = new Map<string, ReportBatch>();
      for (const b of batches) {
        const key = `${b.teamId}:${b.gatewayId}`;
        const group = groups.get(key);
        if (group) group.reports.push(...b.reports);
        else groups.set(key, { ...b, reports: [...b.reports] });
      }
      for (const { teamId, gatewayId, reports } of groups.values()) {
        const ids = [...new Set(reports.map((r) => r.providerMessageId))];
        const rows = await repo.forReports(tx, teamId, gatewayId, ids);
        const current = new Map(rows.map((r) => [r.provider_message_id as string, r]));
        const changes = new Map<number, { status: TMessageStatus; errorCode: string | null; reconciled: boolean }>();
        const entries: Array<{ leadId: number; action: string; diffLog: string }> = [];
        for (const report of reports) {
          const row = current.get(report.providerMessageId);
          if (!row || !canMoveStatus(row.status, report.status)) continue;
          const id = Number(row.id);
          const reconciled = (changes.get(id)?.reconciled ?? false) || row.state === 'unknown';
          changes.set(id, { status: report.status, errorCode: report.errorCode, reconciled });
          if (row.lead_id !== null)
            entries.push({
              leadId: Number(row.lead_id),
              // The title names the new status (`log.sms_status_delivered`); the line, the phone.
              action: `sms_status_${report.status}`,
              diffLog: JSON.stringify([
                {
                  action: 'sms_status',
                  lead_attribute_name: 'sms',
                  lead_attribute_value: row.phone,
                  value_from: row.status,
                  value_to: null,
                },
              ]),
            });
          const next = { ...row, status: report.status, state: reconciled ? ('submitted' as const) : row.state };
          current.set(report.providerMessageId, next);
          out.set(id, next);
        }
        await repo.moveStatuses(
          tx,
          teamId,
          [...changes].map(([id, c]) => ({ id, ...c })),
          entries,
        );
      }
      return [...out.values()];
    });
    // One event per message with where it ended, after the commit, all in one go.
    await deps.bus.publishMany(
      moved.map((row) => ({ audience: { teamId: Number(row.team_id) }, event: statusEvent(row) })),
    );
  }

  // Delivery reports are machine traffic: on the embedded database a person's request goes first.
  // One writer on PostgreSQL too: the reports that arrive while a batch is written make the next
  // batch, so a busy moment costs a few large transactions rather than many small ones. Measured
  // with `npm run bench webhooks`: a third of the pool (3 writers) took 1,214–1,410 reports/s,
  // one writer 1,574, each round trip to the database being costly on the app's own thread.
  const reportWrites = createGroupCommit<ReportBatch>((batches) => runAsBulk(() => applyBatch(batches)), 500);

  /** Resolves once the reports are written (a callback is answered 200 only then). */
  async function apply(teamId: number, gatewayId: number, reports: TStatusReport[]): Promise<void> {
    if (reports.length > 0) await reportWrites.add({ teamId, gatewayId, reports });
  }

  async function schedulePoll(teamId: number, messageId: number, attempt: number) {
    await deps.jobs.send<PollJob>(
      POLL_JOB,
      { teamId, messageId, attempt },
      { startAfter: deps.pollSeconds ?? pollDelaySeconds(attempt), retryLimit: 2 },
    );
  }

  async function poll(job: PollJob) {
    const row = await repo.find(job.teamId, job.messageId);
    if (!row?.provider_message_id || row.gateway_id === null || (row.status && isFinalStatus(row.status))) return;
    let adapter: Awaited<ReturnType<MessagesDeps['gateways']['adapter']>>['adapter'];
    try {
      adapter = (await deps.gateways.adapter(job.teamId, Number(row.gateway_id))).adapter;
    } catch {
      return; // the gateway is gone: nothing can tell its messages' fate any more
    }
    if (!adapter.pollStatuses) return;
    const reports = await adapter.pollStatuses([row.provider_message_id]);
    await apply(job.teamId, Number(row.gateway_id), reports);
    const now = await repo.find(job.teamId, job.messageId);
    if (now?.status && isFinalStatus(now.status)) return;
    if (job.attempt + 1 < POLL_LIMIT) await schedulePoll(job.teamId, job.messageId, job.attempt + 1);
  }

  /** A reply that is not an opt-out: a Timeline entry on each lead of the team holding the phone. */
  async function reply(teamId: number, phone: string, text: string): Promise<number[]> {
    return db.transaction().execute(async (tx) => {
      const ids = await repo.leadsWithPhone(teamId, phone, tx);
      await timeline(
        tx,
        teamId,
        ids.map((id) => ({
          lead_id: id,
          type: 'message',
          action: 'sms_received',
          diff_log: [
            {
              action: 'sms_received',
              lead_attribute_name: 'sms',
              lead_attribute_value: text,
              value_from: phone,
              value_to: null,
            },
          ],
        })),
      );
      return ids;
    });
  }

  /**
   * STOP: the phone is opted out for the team (also when no lead holds it yet), its values get `ban`,
   * and every lead of the team holding it becomes blacklisted, through the lead-write contract (so
   * lead pages and counts see it) with a Timeline entry each.
   */
  async function optOut(teamId: number, gatewayId: number, phone: string, text: string): Promise<number[]> {
    return withLeadWrite(db, teamId, { phones: false }, async (w) => {
      await repo.addOptOut(w.tx, teamId, phone, gatewayId, 'inbound_stop');
      const ids = await repo.leadsWithPhone(teamId, phone, w.tx);
      if (ids.length === 0) {
        w.unchanged();
        return ids;
      }
      await w.touchLeads(ids);
      await w.tx
        .updateTable('lead_values')
        .set({ ban: true, updated_at: sql`now()` })
        .where('team_id', '=', teamId)
        .where('type', '=', 'phone')
        .where('value', '=', phone)
        .execute();
      await w.appendTimeline(
        null,
        ids.map((id) => ({
          lead_id: id,
          type: 'message',
          action: 'sms_opt_out',
          diff_log: [
            {
              action: 'sms_received',
              lead_attribute_name: 'sms',
              lead_attribute_value: text,
              value_from: phone,
              value_to: null,
            },
          ],
        })),
      );
      await w.setStatus(ids, 'blacklisted', null);
      return ids;
    });
  }

  async function inbound(event: { teamId: number; gatewayId: number; message: { from: string; text: string } }) {
    const { teamId, gatewayId } = event;
    const raw = event.message.from.trim();
    const phone = normalizePhone(raw.startsWith('+') ? raw : `+${raw}`);
    if (!phone) return;
    const text = event.message.text;
    const stop = isStopMessage(text);
    const leadIds = stop ? await optOut(teamId, gatewayId, phone, text) : await reply(teamId, phone, text);
    for (const leadId of leadIds)
      await deps.bus.publish(
        { teamId },
        { type: 'MessageStatus', payload: { message_id: null, lead_id: leadId, state: null, status: null } },
      );
  }

  /** Claims left by a process that died mid-send become unknown: reconciled by a report, never re-sent. */
  async function sweep() {
    for (const row of await repo.expireClaims()) await published(Number(row.team_id), row);
  }

  return { apply, schedulePoll, poll, inbound, sweep, published };
}
export type StatusService = ReturnType<typeof createStatusService>;
