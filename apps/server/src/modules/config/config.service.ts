import { CAMPAIGN_STATUSES, DEFAULT_MANUAL_STATUSES } from '@herald/shared/campaigns/campaign-moves';
import type { TConfigGeneral } from '@herald/shared/config/config.schemas';
import { GATEWAY_TYPE_INFO, GATEWAY_TYPES } from '@herald/shared/gateways/gateway-types';
import { SMS_TEMPLATE_TYPES } from '@herald/shared/templates/templates.schemas';

// ICU still lists some zones under their old names; the renamed ones are what users look for
// (Europe/Kyiv since 2022), and Intl accepts both.
const RENAMED: Record<string, string> = {
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
};

function timezones(): string[] {
  return Intl.supportedValuesOf('timeZone')
    .map((zone) => RENAMED[zone] ?? zone)
    .filter((zone, i, all) => all.indexOf(zone) === i)
    .sort();
}

const label = (key: string) => key[0].toUpperCase() + key.slice(1);

/** The general configuration; computed once, it changes only with the code. */
export function createConfigService() {
  let cached: TConfigGeneral | undefined;
  return {
    general(): TConfigGeneral {
      cached ??= {
        timezones_js: timezones(),
        campaign_gateway_list: GATEWAY_TYPES.map((key) => ({ key, label: GATEWAY_TYPE_INFO[key].label })),
        setting_gateway_message_fields: Object.fromEntries(
          GATEWAY_TYPES.map((key) => [key, GATEWAY_TYPE_INFO[key].fields]),
        ),
        gateway_capabilities: Object.fromEntries(
          GATEWAY_TYPES.map((key) => [key, GATEWAY_TYPE_INFO[key].capabilities]),
        ),
        // The web shows each status by its key, translated; the label is the English name.
        campaign_status_list: CAMPAIGN_STATUSES.map((key) => ({ key, label: label(key) })),
        // What the status change offers (the current status and moves the table refuses left out).
        campaign_manual_status_list: DEFAULT_MANUAL_STATUSES.map((key) => ({ key, label: label(key) })),
        // Filled by the lookups capability when it lands.
        lookup_maps: {},
        // The web shows each type by its key, translated; the label is the English name.
        sms_templates_types: SMS_TEMPLATE_TYPES.map((key) => ({ key, label: key[0].toUpperCase() + key.slice(1) })),
      };
      return cached;
    },
  };
}
export type ConfigService = ReturnType<typeof createConfigService>;
