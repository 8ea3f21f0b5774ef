import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { done, ZDone } from '@herald/shared/common/messages';
import {
  ZAccessToken,
  ZChangePasswordRequest,
  ZEmailRequest,
  ZInviteInfo,
  ZInviteRegisterRequest,
  ZResetRequest,
  ZResetResponse,
  ZSigninRequest,
  ZSignupRequest,
  ZVerifyEmailRequest,
} from '@herald/shared/auth/auth.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { AuthService } from './auth.service.ts';

/** `/api/auth/*`: public entry points and the session's own actions. */
export async function authRoutes(app: FastifyInstance, { auth }: { auth: AuthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  // Per-IP ceiling on top of the per-account limiter in the service, before any hashing.
  const throttle = { rateLimit: { max: 60, timeWindow: '1 minute' } };

  r.post(
    '/signup',
    { config: throttle, schema: { tags, security: [], body: ZSignupRequest, response: { 201: ZAccessToken } } },
    async (request, reply) => {
      const result = await auth.signup(request.body, requestLanguage(request.headers['accept-language']));
      return reply.status(201).send(result);
    },
  );

  r.post(
    '/signin',
    { config: throttle, schema: { tags, security: [], body: ZSigninRequest, response: { 200: ZAccessToken } } },
    (request) => auth.signin(request.body.email, request.body.password, request.ip),
  );

  r.post(
    '/logout',
    { preHandler: app.authenticateAny, schema: { tags, response: { 200: ZDone } } },
    async (request) => {
      await auth.logout(currentUser(request).sessionId);
      return done('logged_out');
    },
  );

  r.post(
    '/email/resend',
    { config: throttle, schema: { tags, security: [], body: ZEmailRequest.partial(), response: { 200: ZDone } } },
    async (request) => {
      // Signed in (the access-denied screen): the session says whose; otherwise the e-mail given.
      let email = request.body.email;
      if (request.headers.authorization) {
        await app.authenticateAny(request, undefined as never);
        email = currentUser(request).email;
      }
      if (email) await auth.resendVerification(email, request.ip, requestLanguage(request.headers['accept-language']));
      return done('reset_link_sent');
    },
  );

  r.post(
    '/email/verify',
    { config: throttle, schema: { tags, security: [], body: ZVerifyEmailRequest, response: { 200: ZDone } } },
    async (request) => {
      await auth.verifyEmail(request.body.token);
      return done('email_verified');
    },
  );

  r.post(
    '/password/email',
    { config: throttle, schema: { tags, security: [], body: ZEmailRequest, response: { 200: ZDone } } },
    async (request) => {
      await auth.requestPasswordReset(
        request.body.email,
        request.ip,
        requestLanguage(request.headers['accept-language']),
      );
      return done('reset_link_sent');
    },
  );

  r.post(
    '/password/reset',
    { config: throttle, schema: { tags, security: [], body: ZResetRequest, response: { 200: ZResetResponse } } },
    (request) => auth.resetPassword(request.body, request.ip),
  );

  r.post(
    '/password/change',
    {
      config: throttle,
      preHandler: app.authorize('profile:update'),
      schema: { tags, body: ZChangePasswordRequest, response: { 200: ZAccessToken } },
    },
    (request) => auth.changePassword(currentUser(request).id, request.body, request.ip),
  );

  r.get(
    '/invite/:token',
    {
      config: throttle,
      schema: { tags, security: [], params: z.object({ token: z.string().max(200) }), response: { 200: ZInviteInfo } },
    },
    (request) => auth.invitationEmail(request.params.token),
  );

  r.post(
    '/invite/register',
    { config: throttle, schema: { tags, security: [], body: ZInviteRegisterRequest, response: { 201: ZAccessToken } } },
    async (request, reply) => reply.status(201).send(await auth.registerByInvitation(request.body)),
  );
}
