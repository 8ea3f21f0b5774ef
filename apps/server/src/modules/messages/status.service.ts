import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import { canMoveStatus, isFinalStatus, type TMessageStatus } from '@herald/shared/gateways/message-status';
import type { Transaction } from 'kysely';
import { appendTimelineBulk, type TimelineEntry } from '../../db/lead-store/lead-write.ts';
import { runAsBulk } from '../../db/connection-priority.ts';
import type { DB } from '../../db/schema.ts';
import { createGroupCommit } from './group-commit.ts';
import {
  createMessageReportsRepository,
  type IncomingReport,
  type StatusChange,
} from './message-reports.repository.ts';
import type { MessagesDeps } from './messages.deps.ts';
import type { MessageRow, MessagesRepository } from './messages.repository.ts';
import { createRepliesService } from './replies.service.ts';
import type { JobData } from '@herald/shared/jobs/job-definition';
import { POLL_JOB } from '@herald/shared/jobs/messages.jobs';

export { POLL_JOB };
/** Polls of one message before it is left to its last status (about three days at the cap). */
const POLL_LIMIT = 160;
const pollDelaySeconds = (attempt: number) => Math.min(30 * 2 ** attempt, 1_800);
/** Kept reports no row took in this many days are dropped: they are not about a message of ours. */
const KEPT_DAYS = 3;

interface ReportBatch {
  teamId: number;
  gatewayId: number | null;
  reports: IncomingReport[];
  /** Rows that settled: their kept reports are taken and applied in this batch. */
  settled?: number[];
}

export type PollJob = JobData<typeof POLL_JOB>;

/** Where a report goes: a row (learning the provider's id or not), kept for later, or nowhere. */
type Target = { row: MessageRow; bind: boolean } | 'keep' | 'drop';

/**
 * Everything that moves a message after it was handed over (decision 025): delivery reports
 * (webhook or poll), matched by the provider's id or by the row the callback's URL names, with the
 * rank rule so repeated and late reports change nothing; reports that outrun their row, kept and
 * applied when it settles; replies (`replies.service.ts`). Moves land on the lead's Timeline, go out
 * live for single SMS, and as `messages.moved` to the other modules.
 */
export function createStatusService(deps: MessagesDeps & { repo: MessagesRepository }) {
  const { db, repo } = deps;
  const reportsRepo = createMessageReportsRepository(db);

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
   * The row a report may move. A row named under a signature (Twilio signs the whole URL, our
   * AlphaSMS token signs its key) is the only one it may move: a token replayed with another
   * message's id changes nothing. An unsigned name (`?m=` where the provider signs only the body)
   * is a hint: the provider's id decides, and the name binds only a row that has no provider id
   * yet. A row still being sent keeps the report until it settles.
   */
  function targetOf(report: IncomingReport, byId: Map<number, MessageRow>, byPid: Map<string, MessageRow>): Target {
    const holder = byPid.get(report.providerMessageId);
    const named = report.row ? byId.get(report.row.id) : undefined;
    const bindable = (row: MessageRow): Target =>
      row.state === 'pending' || row.state === 'claimed' ? 'keep' : { row, bind: true };
    if (report.row?.signed) {
      if (!named) return 'drop';
      if (named.provider_message_id !== null)
        return named.provider_message_id === report.providerMessageId ? { row: named, bind: false } : 'drop';
      return holder ? 'drop' : bindable(named);
    }
    if (holder) return { row: holder, bind: false };
    if (named && named.provider_message_id === null) return bindable(named);
    return 'keep';
  }

  /** One gateway's reports, in arrival order, onto its rows (locked); returns the rows that moved. */
  async function applyGroup(
    tx: Transaction<DB>,
    teamId: number,
    gatewayId: number,
    given: IncomingReport[],
    settledRows: number[],
  ) {
    const pids = [...new Set(given.map((r) => r.providerMessageId))];
    const rowIds = [...new Set([...settledRows, ...given.flatMap((r) => (r.row ? [r.row.id] : []))])];
    const rows = await reportsRepo.forReports(tx, teamId, gatewayId, pids, rowIds);
    // Reports kept for these rows while they were being sent: any report of a settled row brings
    // them back (they arrived first, so they go first). They name only rows locked here, and are
    // taken after the rows are locked, as every batch does, so two batches cannot deadlock on them.
    const settled = rows.filter((r) => r.state !== 'pending' && r.state !== 'claimed').map((r) => Number(r.id));
    const taken = await reportsRepo.takeKept(tx, teamId, settled, gatewayId);
    const reports = [...taken, ...given];
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const byPid = new Map(rows.flatMap((r) => (r.provider_message_id ? [[r.provider_message_id, r] as const] : [])));
    const changes = new Map<number, StatusChange>();
    const entries: TimelineEntry[] = [];
    const kept: IncomingReport[] = [];
    const moved = new Map<number, MessageRow>();
    for (const report of reports) {
      const target = targetOf(report, byId, byPid);
      if (target === 'drop') continue;
      if (target === 'keep') {
        kept.push(report);
        continue;
      }
      const { row } = target;
      const id = Number(row.id);
      const prior = changes.get(id);
      const moves = canMoveStatus(row.status, report.status);
      // A report for an unknown row proves the provider took it, even one that moves no status.
      if (!moves && !target.bind && row.state !== 'unknown') continue;
      const status = moves ? report.status : (row.status as TMessageStatus);
      const reconciled = (prior?.reconciled ?? false) || row.state === 'unknown';
      const bind = target.bind ? report.providerMessageId : (prior?.bind ?? null);
      changes.set(id, { id, status, errorCode: moves ? report.errorCode : row.error_code, reconciled, bind });
      if (row.lead_id !== null && moves)
        entries.push({
          lead_id: Number(row.lead_id),
          type: 'message',
          // The title names the new status (`log.sms_status_delivered`); the line, the phone.
          action: `sms_status_${report.status}`,
          diff_log: [
            {
              action: 'sms_status',
              lead_attribute_name: 'sms',
              lead_attribute_value: row.phone,
              value_from: row.status,
              value_to: null,
            },
          ],
        });
      const next: MessageRow = {
        ...row,
        status,
        error_code: moves ? report.errorCode : row.error_code,
        provider_message_id: row.provider_message_id ?? bind,
        state: reconciled ? 'submitted' : row.state,
      };
      byId.set(id, next);
      if (next.provider_message_id) byPid.set(next.provider_message_id, next);
      moved.set(id, next);
    }
    await reportsRepo.moveStatuses(tx, teamId, [...changes.values()]);
    await appendTimelineBulk(tx, teamId, null, entries);
    await reportsRepo.keep(tx, teamId, gatewayId, kept);
    return [...moved.values()];
  }

  /**
   * Applies the reports of many callbacks in one transaction: per gateway one locking read of the
   * rows they name, the rank rule folded over the reports in arrival order (so a late or repeated
   * report changes nothing, within a batch as across batches), one write of the moves, one bulk
   * Timeline append, and the reports no row can take yet kept. Kept reports of the rows the batch
   * settles or moves are taken back first and applied with it.
   */
  async function applyBatch(batches: ReportBatch[]): Promise<void> {
    const moved = await db.transaction().execute(async (tx) => {
      const groups = new Map<
        string,
        { teamId: number; gatewayId: number; reports: IncomingReport[]; settled: number[] }
      >();
      const group = (teamId: number, gatewayId: number) => {
        const key = `${teamId}:${gatewayId}`;
        const found = groups.get(key) ?? { teamId, gatewayId, reports: [], settled: [] };
        groups.set(key, found);
        return found;
      };
      // Settled rows join their gateway's group: locked there, then their kept reports taken.
      for (const b of batches) {
        if (!b.settled?.length) continue;
        for (const r of await reportsRepo.gatewaysOf(tx, b.teamId, b.settled))
          group(b.teamId, r.gatewayId).settled.push(r.id);
      }
      for (const b of batches)
        if (b.gatewayId !== null && b.reports.length > 0) group(b.teamId, b.gatewayId).reports.push(...b.reports);
      const out: MessageRow[] = [];
      for (const g of groups.values()) out.push(...(await applyGroup(tx, g.teamId, g.gatewayId, g.reports, g.settled)));
      return out;
    });
    if (moved.length === 0) return;
    // One event per single SMS with where it ended, after the commit, all in one go; a campaign's
    // messages are summed up by the campaign itself, from `messages.moved`.
    await deps.bus.publishMany(
      moved
        .filter((row) => row.kind === 'single')
        .map((row) => ({ audience: { teamId: Number(row.team_id) }, event: statusEvent(row) })),
    );
    const byTeam = new Map<number, MessageRow[]>();
    for (const row of moved) byTeam.set(Number(row.team_id), [...(byTeam.get(Number(row.team_id)) ?? []), row]);
    for (const [teamId, rows] of byTeam)
      await deps.domainEvents?.emit('messages.moved', {
        teamId,
        messages: rows.map((r) => ({
          id: Number(r.id),
          kind: r.kind,
          campaignId: r.campaign_id === null ? null : Number(r.campaign_id),
          campaignStepId: r.campaign_step_id === null ? null : Number(r.campaign_step_id),
          state: r.state,
          status: r.status,
        })),
      });
  }

  // Delivery reports are machine traffic: on the embedded database a person's request goes first.
  // One writer on PostgreSQL too: the reports that arrive while a batch is written make the next
  // batch, so a busy moment costs a few large transactions rather than many small ones. Measured
  // with `npm run bench webhooks`: a third of the pool (3 writers) took 1,214–1,410 reports/s,
  // one writer 1,574, each round trip to the database being costly on the app's own thread.
  const reportWrites = createGroupCommit<ReportBatch>((batches) => runAsBulk(() => applyBatch(batches)), 500);

  /** Resolves once the reports are written (a callback is answered 200 only then). */
  async function apply(teamId: number, gatewayId: number, reports: IncomingReport[]): Promise<void> {
    if (reports.length > 0) await reportWrites.add({ teamId, gatewayId, reports });
  }

  /**
   * The send path calls this once it has settled rows (submitted, unknown or failed): reports that
   * arrived for them meanwhile, kept until now, are applied. The sweep does the same for rows whose
   * process died before saying so.
   */
  async function applyKept(teamId: number, rowIds: number[]): Promise<void> {
    if (rowIds.length > 0) await reportWrites.add({ teamId, gatewayId: null, reports: [], settled: rowIds });
  }

  async function schedulePoll(teamId: number, messageId: number, attempt: number) {
    await deps.jobs.send(
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
    const reports: TStatusReport[] = await adapter.pollStatuses([row.provider_message_id]);
    await apply(job.teamId, Number(row.gateway_id), reports);
    const now = await repo.find(job.teamId, job.messageId);
    if (now?.status && isFinalStatus(now.status)) return;
    if (job.attempt + 1 < POLL_LIMIT) await schedulePoll(job.teamId, job.messageId, job.attempt + 1);
  }

  /** Kept reports whose rows settled without saying so are applied; those no row took for days, dropped. */
  async function sweepKept() {
    for (const { teamId, rowIds } of await reportsRepo.settledWithKept(1_000)) await applyKept(teamId, rowIds);
    await reportsRepo.dropStaleKept(KEPT_DAYS);
  }

  const replies = createRepliesService({ ...deps, reportsRepo });

  return { apply, applyKept, schedulePoll, poll, inbound: replies.inbound, sweepKept, published };
}
export type StatusService = ReturnType<typeof createStatusService>;
