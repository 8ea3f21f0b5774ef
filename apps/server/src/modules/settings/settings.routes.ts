import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPhoneTemplate } from '@herald/shared/attributes/attributes.schemas';
import { ZCampaignFrequencyCap } from '@herald/shared/campaigns/campaign-live.schemas';
import { ZDefaultCountry } from '@herald/shared/settings/settings.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { SettingsService } from './settings.service.ts';

/**
 * The team's phone rule: `/api/validation-template/phone` (ignored formats), `/api/settings/default-country`;
 * its frequency cap across campaigns: `/api/settings/campaign-frequency-cap` (decision 034).
 */
export async function settingsRoutes(app: FastifyInstance, { settings }: { settings: SettingsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/validation-template/phone',
    { preHandler: app.authorize('attributes:read'), schema: { tags: ['settings'], response: { 200: ZPhoneTemplate } } },
    async (request) => ({ values: await settings.phoneTemplate(currentUser(request).teamId) }),
  );
  r.put(
    '/validation-template/phone',
    {
      preHandler: app.authorize('settings:manage'),
      schema: { tags: ['settings'], body: ZPhoneTemplate, response: { 200: ZPhoneTemplate } },
    },
    async (request) => ({ values: await settings.savePhoneTemplate(currentUser(request).teamId, request.body.values) }),
  );
  r.get(
    '/settings/default-country',
    {
      preHandler: app.authorize('attributes:read'),
      schema: { tags: ['settings'], response: { 200: ZDefaultCountry } },
    },
    async (request) => ({ country: await settings.defaultCountry(currentUser(request).teamId) }),
  );
  r.put(
    '/settings/default-country',
    {
      preHandler: app.authorize('settings:manage'),
      schema: { tags: ['settings'], body: ZDefaultCountry, response: { 200: ZDefaultCountry } },
    },
    async (request) => ({
      country: await settings.saveDefaultCountry(currentUser(request).teamId, request.body.country),
    }),
  );
  r.get(
    '/settings/campaign-frequency-cap',
    {
      preHandler: app.authorize('campaigns:read'),
      schema: { tags: ['settings'], response: { 200: ZCampaignFrequencyCap } },
    },
    async (request) => settings.campaignCap(currentUser(request).teamId),
  );
  r.put(
    '/settings/campaign-frequency-cap',
    {
      preHandler: app.authorize('settings:manage'),
      schema: { tags: ['settings'], body: ZCampaignFrequencyCap, response: { 200: ZCampaignFrequencyCap } },
    },
    async (request) => settings.saveCampaignCap(currentUser(request).teamId, request.body),
  );
}
