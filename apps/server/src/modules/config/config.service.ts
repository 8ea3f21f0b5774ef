import type { TConfigGeneral } from '@herald/shared/config/config.schemas';
import { GATEWAY_TYPE_INFO, GATEWAY_TYPES } from '@herald/shared/gateways/gateway-types';

/** The general configuration; computed once, it changes only with the code. */
export function createConfigService() {
  let cached: TConfigGeneral | undefined;
  return {
    general(): TConfigGeneral {
      cached ??= {
        timezones_js: Intl.supportedValuesOf('timeZone'),
        campaign_gateway_list: GATEWAY_TYPES.map((key) => ({ key, label: GATEWAY_TYPE_INFO[key].label })),
        setting_gateway_message_fields: Object.fromEntries(
          GATEWAY_TYPES.map((key) => [key, GATEWAY_TYPE_INFO[key].fields]),
        ),
        // Filled by the campaigns, lookups and templates capabilities as they land.
        campaign_status_list: [],
        campaign_manual_status_list: [],
        lookup_maps: {},
        sms_templates_types: [],
      };
      return cached;
    },
  };
}
export type ConfigService = ReturnType<typeof createConfigService>;
