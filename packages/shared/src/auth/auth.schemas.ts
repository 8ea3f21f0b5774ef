import { z } from 'zod';
import { ZActiveSubscription } from '../plans/plans.schemas.ts';
import type { TMessageCode } from '../common/messages.ts';
import { ZRole } from './roles.ts';

/** Special characters a password needs one of (spec section 5). */
export const PASSWORD_SPECIALS = `!@#$%^&*()_+-=[]{};':"\\|,.<>/?`;
const specialRe = new RegExp(`[${PASSWORD_SPECIALS.replace(/[\\\]^-]/g, '\\$&')}]`);

// The spec's messages (section 5) by their codes; the web translates them.
export const AUTH_MESSAGES = {
  nameRequired: 'username_required',
  fullNameRequired: 'full_name_required',
  emailInvalid: 'email_invalid',
  passwordRequired: 'password_required',
  passwordMin: 'password_too_short',
  passwordNumber: 'password_needs_number',
  passwordSpecial: 'password_needs_special',
  passwordsMustMatch: 'passwords_must_match',
  oldPasswordRequired: 'old_password_required',
  currentPasswordError: 'current_password_error',
  currentPasswordIncorrect: 'current_password_incorrect',
  loginFailed: 'login_failed',
} as const satisfies Record<string, TMessageCode>;

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: AUTH_MESSAGES.emailInvalid }));

export const ZNewPassword = z
  .string({ message: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(8, AUTH_MESSAGES.passwordMin)
  .max(200)
  .regex(/\d/, AUTH_MESSAGES.passwordNumber)
  .regex(specialRe, AUTH_MESSAGES.passwordSpecial);

// The profile's Name keeps the spec's text; the sign-up forms label the same field "Full name".
const ZName = z.string().trim().min(1, AUTH_MESSAGES.nameRequired).max(120);
const ZFullName = z.string().trim().min(1, AUTH_MESSAGES.fullNameRequired).max(120);

function withConfirmation<T extends z.ZodObject<{ password: z.ZodType; password_confirmation: z.ZodType }>>(schema: T) {
  return schema.refine((v) => v.password === v.password_confirmation, {
    message: AUTH_MESSAGES.passwordsMustMatch,
    path: ['password_confirmation'],
  });
}

export const ZSignupRequest = withConfirmation(
  z.object({ name: ZFullName, email: ZEmail, password: ZNewPassword, password_confirmation: z.string() }),
);
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZSigninRequest = z.object({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(200),
});
export type TSigninRequest = z.infer<typeof ZSigninRequest>;

export const ZAccessToken = z.object({ access_token: z.string() });
export type TAccessToken = z.infer<typeof ZAccessToken>;

export const ZEmailRequest = z.object({ email: z.string().trim().toLowerCase().max(254) });
export const ZVerifyEmailRequest = z.object({ token: z.string().min(1).max(200) });

export const ZResetRequest = z.union([
  withConfirmation(
    z.object({
      token: z.string().min(1).max(200),
      code: z.string().trim().min(1).max(12),
      email: z.string().trim().toLowerCase().max(254),
      password: ZNewPassword,
      password_confirmation: z.string(),
    }),
  ),
  z.object({ token: z.string().min(1).max(200), code: z.string().trim().min(1).max(12) }),
]);
export type TResetRequest = z.infer<typeof ZResetRequest>;
/** Step one also answers the account's e-mail, so step two starts with it filled in. */
export const ZResetResponse = z.object({ is_completed: z.boolean(), email: z.string().optional() });
export type TResetResponse = z.infer<typeof ZResetResponse>;

export const ZChangePasswordRequest = withConfirmation(
  z.object({
    current_password: z.string().min(1, AUTH_MESSAGES.oldPasswordRequired).max(200),
    password: ZNewPassword,
    password_confirmation: z.string(),
  }),
).refine((v) => v.current_password !== v.password, {
  message: AUTH_MESSAGES.currentPasswordError,
  path: ['password'],
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

export const ZInviteInfo = z.object({ email: z.string() });
export const ZInviteRegisterRequest = withConfirmation(
  z.object({
    name: ZFullName,
    email: z.string().trim().toLowerCase().max(254),
    password: ZNewPassword,
    password_confirmation: z.string(),
    token: z.string().min(1).max(200),
  }),
);
export type TInviteRegisterRequest = z.infer<typeof ZInviteRegisterRequest>;

/** The signed-in user, with what their role may do. */
export const ZUser = z.object({
  id: z.number(),
  team_id: z.number(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: ZRole,
  email_verified_at: z.string().nullable(),
  balance: z.number(),
  balance_currency: z.string(),
  /** The plan's free SMS this period (remaining/total), for the header's counter. */
  free_sms: z.object({ remaining: z.number().nullable(), total: z.number().nullable() }).optional(),
  permissions: z.array(z.string()),
  /** The team's subscriptions in force (none: the activation prompt, disabled actions; decision 015). */
  subscriptions: z.array(ZActiveSubscription),
});
export type TUser = z.infer<typeof ZUser>;

/**
 * Phone as typed; empty means none. The server reads it by the team's phone rule (decision 011), so
 * `0671234567` is the team country's number, not `+0671234567`.
 */
export const ZPhoneInput = z
  .string()
  .trim()
  .max(32)
  .transform((v) => (v === '' ? null : v));

export const ZUpdateUserRequest = z.object({ name: ZName, phone: ZPhoneInput.optional().nullable() });
export type TUpdateUserRequest = z.infer<typeof ZUpdateUserRequest>;
