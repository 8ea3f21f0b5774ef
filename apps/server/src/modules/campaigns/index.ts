import type { FastifyInstance } from 'fastify';
import { CAMPAIGN_PAUSED_MAIL_JOB } from '@herald/shared/jobs/campaigns.jobs';
import type { Kysely } from 'kysely';
import { pageMeta } from '@herald/shared/common/pagination.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { DB } from '../../db/schema.ts';
import { createCampaignAudiencesRepository } from './campaign-audiences.repository.ts';
import { createCampaignChecks } from './campaign-checks.ts';
import { createCampaignEngine } from './campaign-engine.ts';
import { createCampaignLive } from './campaign-live.ts';
import type { LookupStepsPort } from './campaign-lookup-steps.ts';
import { registerCampaignPausedMail } from './campaign-paused-mail.ts';
import { appendCampaignLog, appendCampaignLogs, campaignLogPage } from './campaign-logs.repository.ts';
import { createCampaignPreview } from './campaign-preview.service.ts';
import { createCampaignStart } from './campaign-start.ts';
import { recipientBuckets } from './campaign-recipients.repository.ts';
import { createCampaignStepsRepository } from './campaign-steps.repository.ts';
import { createCampaignStepsService } from './campaign-steps.service.ts';
import type { CampaignsDeps } from './campaigns.deps.ts';
import { createCampaignsRepository } from './campaigns.repository.ts';
import { campaignsRoutes } from './campaigns.routes.ts';
import { createCampaignsService, notFound } from './campaigns.service.ts';
import { createCampaignTestSend } from './campaign-test-send.service.ts';
import { createCampaignAliases } from './campaign-aliases.service.ts';
import { createCampaignSegmentsRepository } from './campaign-segments.repository.ts';
import { campaignSegmentRoutes } from './campaign-segments.routes.ts';
import { createCampaignSegments } from './campaign-segments.service.ts';
import { campaignStatisticsRoutes } from './campaign-statistics.routes.ts';
import { createCampaignStatistics } from './campaign-statistics.service.ts';
import { createCampaignExportSource } from './campaign-audience-export.ts';
import { createCampaignAudienceRepository } from './campaign-audience.repository.ts';
import { campaignAudienceRoutes } from './campaign-audience.routes.ts';
import { createCampaignAudienceService } from './campaign-audience.service.ts';

export type { CampaignsDeps } from './campaigns.deps.ts';
export type CampaignLogs = (
  user: AuthUser,
  campaignId: number,
  query: { page: number; limit: number },
) => Promise<{ data: Awaited<ReturnType<typeof campaignLogPage>>['rows']; meta: ReturnType<typeof pageMeta> }>;

/**
 * Wires campaigns' editing side (decision 031): repositories → services → routes. What the engine
 * builds on, from here:
 * - `recipients.fix(tx, teamId, campaignId)`: writes the campaign's recipients, every audience lead
 *   in one bucket, by the very statement the preview counts with (`recipientBuckets`); the engine's
 *   own start writes the same buckets a chunk of lead ids per transaction (`campaign-start.ts`, 036);
 * - `logs.append` / `logs.appendMany`: log entries in the caller's transaction;
 * - `repo`, `steps`: the rows, read and moved by the engine's own statements.
 */
export async function createCampaignsModule(deps: CampaignsDeps) {
  const { db } = deps;
  const repo = createCampaignsRepository(db);
  const steps = createCampaignStepsRepository(db);
  const audiences = createCampaignAudiencesRepository(db);
  const checks = createCampaignChecks(deps);
  const preview = createCampaignPreview({ ...deps, repo, steps, audiences });
  const campaigns = createCampaignsService({
    ...deps,
    repo,
    steps,
    audiences,
    checks,
    assertLaunchable: preview.assertLaunchable,
  });
  const stepsService = createCampaignStepsService({ db, repo, steps, audiences, checks });
  const aliases = createCampaignAliases({ steps: stepsService, audiences });
  // Decision 038: the campaign's recipients and what each step did for them.
  const audienceRepo = createCampaignAudienceRepository(db);
  const audience = createCampaignAudienceService({ repo, steps, audience: audienceRepo });
  const audienceExport = createCampaignExportSource({ repo, steps, audience: audienceRepo });
  if (deps.exports) deps.exports.sources.campaign = audienceExport;
  const statistics = createCampaignStatistics({ db, repo });
  // Decision 039: segments made from a campaign's results, and the campaigns filter's choices.
  const fromResults = createCampaignSegments({
    repo: createCampaignSegmentsRepository(db),
    makeSegment: deps.segments.create,
  });
  const testSend = createCampaignTestSend({ ...deps, repo, steps, audienceOf: (t, id) => preview.audienceOf(t, id) });
  const logs: CampaignLogs = async (user, campaignId, query) => {
    if (!(await repo.find(user.teamId, campaignId))) throw notFound();
    const limit = query.limit ?? 20;
    const { rows, total } = await campaignLogPage(db, user.teamId, campaignId, {
      offset: (query.page - 1) * limit,
      limit,
    });
    return { data: rows, meta: pageMeta(query.page, limit, total) };
  };

  // Decision 036: a start fixes its recipients 10,000 leads a transaction, the first chunk's messages out at once.
  const start = createCampaignStart({
    db,
    audienceOf: (teamId, id) => preview.audienceOf(teamId, id),
    shortLinks: deps.shortLinks,
    chunk: 10_000,
  });
  // Decision 034: every status change is heard live (the engine's, and a user's move below).
  const live = createCampaignLive({ db, bus: deps.bus, processes: deps.jobs.processes });
  await registerCampaignPausedMail(deps.jobs, { db, mailer: deps.mailer, appUrl: deps.appUrl });
  // Lookup steps' lookups (decision 041): the lookups module is made after this one and bound here.
  let lookupSteps: LookupStepsPort | undefined;
  // The engine (decision 032): starts, steps, pauses and ends campaigns on worker processes.
  const engine = createCampaignEngine({
    lookups: () => lookupSteps,
    live,
    log: deps.log,
    onBalancePaused: async (campaignId) => void (await deps.jobs.send(CAMPAIGN_PAUSED_MAIL_JOB, { campaignId })),
    db,
    runWorkers: deps.runWorkers ?? false,
    domainEvents: deps.domainEvents,
    tickMs: deps.engineTickMs,
    shortLinks: deps.shortLinks,
    recipients: start,
  });
  // After the engine's own handler (a pause holds the rows first), and not awaited: telling the
  // team and the popover must not delay a pause or the answer to the user's move.
  deps.domainEvents?.on('campaigns.status_changed', (event) => {
    live
      .changed(event.campaigns.map((c) => c.id))
      .catch((err) => deps.log?.error({ err }, 'campaigns: a status change could not be told'));
  });

  return {
    engine,
    useLookups(port: LookupStepsPort) {
      lookupSteps = port;
    },
    stop: engine.stop,
    service: campaigns,
    steps: stepsService,
    preview,
    repo,
    stepsRepo: steps,
    recipients: {
      /**
       * Writes the recipients at the start, in the caller's transaction; a rerun adds nothing. The
       * audience is compiled first, on connections of its own, so call it before the transaction
       * on the embedded database: `fix(tx, campaignId, await audienceOf(teamId, campaignId))`.
       */
      audienceOf: preview.audienceOf,
      fix: (tx: Kysely<DB>, campaignId: number, audience: Awaited<ReturnType<typeof preview.audienceOf>>) =>
        recipientBuckets(tx, campaignId, audience, { write: true }),
    },
    logs: { append: appendCampaignLog, appendMany: appendCampaignLogs },
    routes: async (app: FastifyInstance) => {
      await campaignsRoutes(app, { campaigns, steps: stepsService, preview, logs, testSend, aliases });
      await campaignAudienceRoutes(app, audience, deps.exports && { exports: deps.exports, source: audienceExport });
      await campaignSegmentRoutes(app, fromResults);
      await campaignStatisticsRoutes(app, statistics);
    },
  };
}
