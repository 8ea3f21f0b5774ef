import { compileIgnoredFormats, invalidIgnoredFormats } from '@herald/shared/leads/phone';
import { AppError } from '../../http/app-error.ts';
import type { ValidationTemplateRepository } from './settings.repository.ts';

/** Team settings; for now the ignored phone formats that leads and imports apply. */
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
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
