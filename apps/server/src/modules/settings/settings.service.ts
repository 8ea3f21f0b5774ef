import {
  compileIgnoredFormats,
  DEFAULT_PHONE_COUNTRY,
  invalidIgnoredFormats,
  isPhoneCountry,
  type PhoneRule,
} from '@herald/shared/leads/phone';
import { DEFAULT_CAMPAIGN_CAP_HOURS, type TCampaignFrequencyCap } from '@herald/shared/campaigns/campaign-live.schemas';
import { AppError } from '../../http/app-error.ts';
import type { ValidationTemplateRepository } from './settings.repository.ts';

/**
 * Team settings: the phone rule's parts (ignored formats, default country) that every phone input
 * applies, and the frequency cap the campaign engine holds every campaign of the team to.
 */
export function createSettingsService(repo: ValidationTemplateRepository) {
  return {
    phoneTemplate: (teamId: number) => repo.find(teamId, 'phone'),

    async savePhoneTemplate(teamId: number, values: string) {
      const invalid = invalidIgnoredFormats(values);
      if (invalid.length > 0) {
        throw AppError.field('values', 'phone_pattern_invalid', { lines: invalid.slice(0, 3).join(', ') });
      }
      await repo.save(teamId, 'phone', values);
      return values;
    },

    async ignoredPhonePatterns(teamId: number): Promise<RegExp[]> {
      return compileIgnoredFormats(await repo.find(teamId, 'phone'));
    },

    async defaultCountry(teamId: number): Promise<string> {
      return (await repo.findDefaultCountry(teamId)) ?? DEFAULT_PHONE_COUNTRY;
    },

    async saveDefaultCountry(teamId: number, country: string) {
      if (!isPhoneCountry(country)) throw AppError.field('country', 'country_unknown');
      await repo.saveDefaultCountry(teamId, country);
      return country;
    },

    /** The frequency cap across campaigns: off (`messages` null) unless the team set one. */
    async campaignCap(teamId: number): Promise<TCampaignFrequencyCap> {
      return (await repo.findCampaignCap(teamId)) ?? { messages: null, hours: DEFAULT_CAMPAIGN_CAP_HOURS };
    },

    async saveCampaignCap(teamId: number, cap: TCampaignFrequencyCap): Promise<TCampaignFrequencyCap> {
      await repo.saveCampaignCap(teamId, cap);
      return cap;
    },

    /** What a phone typed by this team becomes: read in its country, refused when ignored. */
    async phoneRule(teamId: number): Promise<PhoneRule> {
      const [template, country] = await Promise.all([repo.find(teamId, 'phone'), repo.findDefaultCountry(teamId)]);
      return { ignored: compileIgnoredFormats(template), country: country ?? DEFAULT_PHONE_COUNTRY };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
