import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZUpdateUserRequest, ZUser } from '@herald/shared/auth/auth.schemas';
import { done, ZDone } from '@herald/shared/common/messages';
import {
  ZBlockRequest,
  ZCreateInvitationRequest,
  ZInvitation,
  ZInvitationList,
  ZTeamList,
  ZUpdateInvitationRequest,
} from '@herald/shared/team/team.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { TeamService } from './team.service.ts';

/** `/api/user`, `/api/team`, `/api/invitations`. */
export async function teamRoutes(app: FastifyInstance, { team }: { team: TeamService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/user',
    { preHandler: app.authorize('profile:read'), schema: { tags: ['user'], response: { 200: ZUser } } },
    (request) => team.profile(currentUser(request)),
  );

  r.put(
    '/user/:id',
    {
      preHandler: app.authorize('profile:update'),
      schema: { tags: ['user'], params: ZIdParams, body: ZUpdateUserRequest, response: { 200: ZUser } },
    },
    (request) => team.updateProfile(currentUser(request), request.params.id, request.body),
  );

  r.post(
    '/user/:id/block',
    {
      preHandler: app.authorize('team:manage'),
      schema: {
        tags: ['team'],
        params: ZIdParams,
        body: ZBlockRequest,
        response: { 200: z.object({ id: z.number(), blocked: z.boolean() }) },
      },
    },
    (request) => team.setBlocked(currentUser(request), request.params.id, request.body.blocked),
  );

  r.get(
    '/team',
    { preHandler: app.authorize('team:read'), schema: { tags: ['team'], response: { 200: ZTeamList } } },
    async (request) => ({
      data: await team.members(currentUser(request)),
    }),
  );

  r.get(
    '/invitations',
    { preHandler: app.authorize('invitations:manage'), schema: { tags: ['team'], response: { 200: ZInvitationList } } },
    async (request) => ({ data: await team.invitations(currentUser(request)) }),
  );

  r.post(
    '/invitations',
    {
      preHandler: app.authorize('invitations:manage'),
      schema: { tags: ['team'], body: ZCreateInvitationRequest, response: { 201: ZInvitation } },
    },
    async (request, reply) => {
      const lang = requestLanguage(request.headers['accept-language']);
      return reply
        .status(201)
        .send(await team.invite(currentUser(request), request.body.email, request.body.role, lang));
    },
  );

  r.put(
    '/invitations/:id',
    {
      preHandler: app.authorize('invitations:manage'),
      schema: { tags: ['team'], params: ZIdParams, body: ZUpdateInvitationRequest, response: { 200: ZInvitation } },
    },
    (request) => team.updateInvitation(currentUser(request), request.params.id, request.body.role),
  );

  r.post(
    '/invitations/:id/resend',
    {
      preHandler: app.authorize('invitations:manage'),
      schema: { tags: ['team'], params: ZIdParams, response: { 200: ZInvitation } },
    },
    (request) =>
      team.resendInvitation(
        currentUser(request),
        request.params.id,
        requestLanguage(request.headers['accept-language']),
      ),
  );

  r.delete(
    '/invitations/:id',
    {
      preHandler: app.authorize('invitations:manage'),
      schema: { tags: ['team'], params: ZIdParams, response: { 200: ZDone } },
    },
    async (request) => {
      await team.deleteInvitation(currentUser(request), request.params.id);
      return done('invitation_removed');
    },
  );
}
