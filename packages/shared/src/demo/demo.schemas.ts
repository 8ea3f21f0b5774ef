import { z } from 'zod';
import { ZEmail } from '../auth/auth.schemas.ts';
import { messageText } from '../common/messages.ts';

/**
 * Request demo (spec sections 2 and 7): name, e-mail, phone and message. The phone is read by the
 * team's phone rule on the server (decision 011), so here it only has to be there.
 */
export const ZDemoRequest = z.object({
  name: z.string().trim().min(1, messageText('name_required')).max(120),
  email: ZEmail,
  phone: z.string().trim().min(1, messageText('phone_required')).max(32),
  message: z.string().trim().max(2000).default(''),
});
export type TDemoRequest = z.input<typeof ZDemoRequest>;

/** The answer: the request is kept and on its way to the team that answers demo requests. */
export const ZDemoRequestCreated = z.object({ id: z.number(), message: z.string(), code: z.string() });
export type TDemoRequestCreated = z.infer<typeof ZDemoRequestCreated>;
