import type { FastifyReply } from 'fastify';
import type { VersionedCache } from '../db/versioned-cache.ts';

/**
 * Sends the route's serialized answer from `cache` while the team's data version is unchanged,
 * computing and serializing it (with the route's response schema) otherwise. The body is kept as
 * UTF-8 bytes, which Fastify sends as they are: a hit costs the session read and a map lookup.
 */
export async function sendCachedJson(
  reply: FastifyReply,
  cache: VersionedCache,
  key: string,
  version: number,
  compute: () => Promise<unknown>,
): Promise<FastifyReply> {
  const body = await cache.get(key, version, async () => Buffer.from(reply.serialize(await compute()) as string));
  return reply.type('application/json; charset=utf-8').send(body);
}
