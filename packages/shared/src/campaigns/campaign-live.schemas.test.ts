import { describe, expect, it } from 'vitest';
import { CAMPAIGN_PROCESS_KIND, campaignProcessOf, ZCampaignFrequencyCap } from './campaign-live.schemas.ts';

describe('a campaign’s process', () => {
  it('names its campaign and figures, whatever its code; other kinds and broken params name none', () => {
    const params = { campaign_id: 4, sent: 2, messages: 10 };
    expect(campaignProcessOf({ kind: CAMPAIGN_PROCESS_KIND, message: { code: 'campaign_paused', params } })).toEqual(
      params,
    );
    expect(campaignProcessOf({ kind: 'imports.run', message: { code: 'campaign_paused', params } })).toBeNull();
    expect(campaignProcessOf({ kind: CAMPAIGN_PROCESS_KIND, message: null })).toBeNull();
    expect(
      campaignProcessOf({
        kind: CAMPAIGN_PROCESS_KIND,
        message: { code: 'x', params: { ...params, campaign_id: '4' } },
      }),
    ).toBeNull();
  });
});

describe('the frequency cap', () => {
  it('is off with no message count, and bounded when on', () => {
    expect(ZCampaignFrequencyCap.parse({ messages: null, hours: 24 })).toEqual({ messages: null, hours: 24 });
    expect(ZCampaignFrequencyCap.safeParse({ messages: 0, hours: 24 }).success).toBe(false);
    expect(ZCampaignFrequencyCap.safeParse({ messages: 1.5, hours: 24 }).success).toBe(false);
    expect(ZCampaignFrequencyCap.safeParse({ messages: 3, hours: 0 }).success).toBe(false);
    expect(ZCampaignFrequencyCap.safeParse({ messages: 3, hours: 8785 }).success).toBe(false);
  });
});
