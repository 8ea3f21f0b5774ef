import { z } from 'zod';

/**
 * The spec's own names for a campaign's audience (section 7): `campaigns/{id}/segments` and
 * `campaigns/{id}/sources`, beside `campaigns/{id}/audiences`, which holds all three kinds.
 */
const ZRefIds = z.array(z.number().int().positive()).max(100);

/** `POST /campaigns/{id}/segments`: segments (audiences) to add. */
export const ZAddCampaignSegmentsRequest = z.object({ segment_ids: ZRefIds.min(1) });
export type TAddCampaignSegmentsRequest = z.infer<typeof ZAddCampaignSegmentsRequest>;

/**
 * `POST /campaigns/{id}/sources`: whole sources and single lists to add. Neither is refused by the
 * service (`campaign_audience_required`), after another team's campaign has answered 404.
 */
export const ZAddCampaignSourcesRequest = z.object({ source_ids: ZRefIds.default([]), list_ids: ZRefIds.default([]) });
export type TAddCampaignSourcesRequest = z.infer<typeof ZAddCampaignSourcesRequest>;
