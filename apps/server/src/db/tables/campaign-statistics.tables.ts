/**
 * Migration 0037: the campaign statistics summary (decision 037), kept by triggers on `messages`,
 * `short_links` and `campaign_recipients`; never written by the app. "None" is stored as 0 or ''.
 */
export interface CampaignStatisticsTable {
  campaign_id: number;
  step_id: number;
  /** 0: no gateway. */
  gateway_id: number;
  /** '': the gateway's own sender. */
  sender: string;
  /** A recipient bucket; sent rows past 72 h are still 'sent' here (the reader moves them). */
  bucket: string;
  reason: string;
  /** The spec SMS status, '' for none; pending and claimed rows are both 'queued' here. */
  sms_status: string;
  n: number;
  sent: number;
  engaged_sent: number;
  parts: number;
  cost: number;
  free_sms: number;
  clicked: number;
  human_clicks: number;
  other_hits: number;
  engaged: number;
  unsubscribed: number;
}

export interface CampaignStatisticsHourlyTable {
  campaign_id: number;
  /** The UTC hour. */
  hour: Date;
  delivered: number;
  clicked: number;
}

export interface CampaignStatisticsLinksTable {
  campaign_id: number;
  redirect_to: string;
  clickers: number;
  human_clicks: number;
  other_hits: number;
}

/** Recipients by skip reason ('' for those to send). */
export interface CampaignStatisticsRecipientsTable {
  campaign_id: number;
  reason: string;
  n: number;
}

/**
 * Migration 0044: per campaign and phone, how many of the campaign's messages to it are sent,
 * delivered, clicked (by a human), engaged (clicked or unsubscribed), unsubscribed (its link) now.
 * Kept by triggers only.
 */
export interface CampaignStatisticsPhonesTable {
  campaign_id: number;
  phone: string;
  sent: number;
  delivered: number;
  clicked: number;
  engaged: number;
  unsubscribed: number;
}

/** Migration 0044: per campaign, the phones whose count of each figure is above zero (its people). */
export interface CampaignStatisticsPeopleTable {
  campaign_id: number;
  sent: number;
  delivered: number;
  clicked: number;
  engaged: number;
  unsubscribed: number;
}

export interface CampaignStatisticsTables {
  campaign_statistics: CampaignStatisticsTable;
  campaign_statistics_hourly: CampaignStatisticsHourlyTable;
  campaign_statistics_links: CampaignStatisticsLinksTable;
  campaign_statistics_recipients: CampaignStatisticsRecipientsTable;
  campaign_statistics_phones: CampaignStatisticsPhonesTable;
  campaign_statistics_people: CampaignStatisticsPeopleTable;
}
