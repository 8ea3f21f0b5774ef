import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { TEventAudience, TServerEvent } from '@herald/shared/events/events.schemas';

export interface EventEnvelope {
  /** Increasing across processes (time-based), so a reconnecting client can ask for what it missed. */
  id: number;
  audience: TEventAudience;
  event: TServerEvent;
}

export interface EventBus {
  publish(audience: TEventAudience, event: TServerEvent): Promise<void>;
  /** Many events in order; across processes one round trip for all of them, not one each. */
  publishMany(items: Array<{ audience: TEventAudience; event: TServerEvent }>): Promise<void>;
  subscribe(listener: (envelope: EventEnvelope) => void): () => void;
  /** Envelopes this process has seen after `afterId`, for `Last-Event-ID` replays. */
  since(afterId: number): EventEnvelope[];
  close(): Promise<void>;
}

/**
 * NOTIFY is database-wide, not per schema: the channel carries the schema Herald's tables live in,
 * so deployments (or test runs) sharing one database in different schemas never hear each other.
 * Channel names are identifiers, at most 63 bytes.
 */
const channelOf = (schema: string) => (schema === 'public' ? 'herald_events' : `herald_events.${schema}`).slice(0, 63);
const REPLAY_SIZE = 1000;

/**
 * In-process fan-out; with a connection string, every publish goes through PostgreSQL
 * LISTEN/NOTIFY so a browser connected to any API process hears events raised on any other.
 */
export async function createEventBus(connectionString?: string): Promise<EventBus> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const recent: EventEnvelope[] = [];
  let seq = 0;

  const deliver = (envelope: EventEnvelope) => {
    recent.push(envelope);
    if (recent.length > REPLAY_SIZE) recent.shift();
    emitter.emit('event', envelope);
  };
  const nextId = () => Date.now() * 1000 + (seq++ % 1000);

  let listener: pg.Client | undefined;
  let publisher: pg.Pool | undefined;
  let channel = channelOf('public');
  if (connectionString) {
    listener = new pg.Client({ connectionString });
    listener.on('error', () => {});
    await listener.connect();
    const schema = (await listener.query<{ s: string }>('select current_schema() as s')).rows[0].s;
    channel = channelOf(schema);
    await listener.query(`listen ${listener.escapeIdentifier(channel)}`);
    listener.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      try {
        deliver(JSON.parse(message.payload) as EventEnvelope);
      } catch {
        // A foreign payload on our channel is not ours to deliver.
      }
    });
    publisher = new pg.Pool({ connectionString, max: 2 });
    publisher.on('error', () => {});
  }

  return {
    async publish(audience, event) {
      const envelope: EventEnvelope = { id: nextId(), audience, event };
      if (publisher) await publisher.query('select pg_notify($1, $2)', [channel, JSON.stringify(envelope)]);
      else deliver(envelope);
    },
    async publishMany(items) {
      const envelopes = items.map(({ audience, event }): EventEnvelope => ({ id: nextId(), audience, event }));
      if (envelopes.length === 0) return;
      if (publisher) {
        await publisher.query('select pg_notify($1, e) from unnest($2::text[]) with ordinality as u(e, n) order by n', [
          channel,
          envelopes.map((e) => JSON.stringify(e)),
        ]);
      } else for (const envelope of envelopes) deliver(envelope);
    },
    subscribe(fn) {
      emitter.on('event', fn);
      return () => emitter.off('event', fn);
    },
    since(afterId) {
      return recent.filter((e) => e.id > afterId);
    },
    async close() {
      emitter.removeAllListeners();
      await listener?.end().catch(() => {});
      await publisher?.end().catch(() => {});
    },
  };
}

export function isForUser(audience: TEventAudience, user: { id: number; teamId: number }): boolean {
  return 'userId' in audience ? audience.userId === user.id : audience.teamId === user.teamId;
}
