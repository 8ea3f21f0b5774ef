import { z } from 'zod';
import { ZBalanceChangedEvent, ZFreeSmsChangedEvent } from '../billing/billing.schemas.ts';
import { ZCampaignStatusEvent } from '../campaigns/campaign-live.schemas.ts';
import { ZImportStatusEvent } from '../imports/imports.schemas.ts';
import { ZLookupStatusEvent } from '../lookups/lookups.schemas.ts';
import { ZMessageStatusEvent } from '../messages/messages.schemas.ts';
import { ZProcess } from '../processes/processes.schemas.ts';
import { ZExport } from '../segments/segments.schemas.ts';

/**
 * Live events sent over `GET /api/events` (Server-Sent Events). Each has a `type` (the SSE event
 * name) and a `payload`; capabilities add their events here as they land.
 */
export const ZServerEvent = z.discriminatedUnion('type', [
  /** A system process changed: the header's popover updates it in place. */
  z.object({ type: z.literal('ProcessStatus'), payload: ZProcess }),
  z.object({
    type: z.literal('TeamOperatorAction'),
    payload: z.object({ action: z.enum(['lead_created']), user_id: z.number() }),
  }),
  /** An import moved: stage parse … end_resolve_duplicates (or failed), with its counters. */
  z.object({ type: z.literal('ImportStatus'), payload: ZImportStatusEvent }),
  /** An audience CSV export moved: export-pending ("Generating file") → export-completed with its link. */
  z.object({ type: z.literal('ExportStatus'), payload: ZExport }),
  /** A user's balance changed (top-up, charge, share): that user's open tabs update their header. */
  z.object({ type: z.literal('BalanceChanged'), payload: ZBalanceChangedEvent }),
  /** The team's free SMS of the plan changed (spent, or a new plan): every member's header counter updates. */
  z.object({ type: z.literal('FreeSmsChanged'), payload: ZFreeSmsChangedEvent }),
  /** A sent message's delivery status moved, or the lead replied: the lead's Timeline refetches. */
  z.object({ type: z.literal('MessageStatus'), payload: ZMessageStatusEvent }),
  /** A campaign changed status (a user's move or the engine's): its list, page and popover move. */
  z.object({ type: z.literal('CampaignStatus'), payload: ZCampaignStatusEvent }),
  /** A lookup moved or progressed (status, count, percent, time_left): its table row and popover entry. */
  z.object({ type: z.literal('LookupStatus'), payload: ZLookupStatusEvent }),
]);

export type TServerEvent = z.infer<typeof ZServerEvent>;
export type TServerEventType = TServerEvent['type'];

/** Who receives an event: one user's connections or every connection of a team. */
export type TEventAudience = { userId: number } | { teamId: number };
