import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { pageOf, ZPageQuery } from '../common/pagination.schemas.ts';

/** Template types, from configuration (`config/general`'s `sms_templates_types`); the web names them. */
export const SMS_TEMPLATE_TYPES = ['promotion', 'service', 'reminder', 'other'] as const;
export const ZSmsTemplateType = z.enum(SMS_TEMPLATE_TYPES);
export type TSmsTemplateType = z.infer<typeof ZSmsTemplateType>;

/** 'Save as template' and the improver need at least this many characters. */
export const TEMPLATE_MIN_LENGTH = 5;
/** Ten parts of GSM-7: far beyond what anyone sends, short enough to keep a table readable. */
export const TEMPLATE_MAX_LENGTH = 1530;

/** Only http and https: a template's redirect becomes the target of every recipient's short link. */
export const ZRedirectUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, messageText('invalid_url_plain'));

export const ZSmsTemplateParams = z.object({ redirect_to: ZRedirectUrl.nullish() });

export const ZSmsTemplate = z.object({
  id: z.number(),
  name: z.string(),
  type_id: ZSmsTemplateType,
  message: z.string(),
  public: z.boolean(),
  default: z.boolean(),
  params: ZSmsTemplateParams,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TSmsTemplate = z.infer<typeof ZSmsTemplate>;
export const ZSmsTemplatePage = pageOf(ZSmsTemplate);

export const ZSmsTemplateQuery = ZPageQuery.extend({ type_id: ZSmsTemplateType.optional() });

export const ZSaveSmsTemplateRequest = z.object({
  name: z.string().trim().min(1, messageText('name_required')).max(100),
  type_id: ZSmsTemplateType,
  message: z
    .string()
    .max(TEMPLATE_MAX_LENGTH)
    .refine((v) => v.trim().length >= TEMPLATE_MIN_LENGTH, messageText('template_too_short')),
  public: z.boolean().default(true),
  params: ZSmsTemplateParams.default({}),
});
export type TSaveSmsTemplateRequest = z.input<typeof ZSaveSmsTemplateRequest>;
