import type { TAccessTicket } from '@herald/shared/auth/tickets.schemas';
import { type TServerEvent, type TServerEventType, ZServerEvent } from '@herald/shared/events/events.schemas';
import { createContext, type ReactNode, useContext, useEffect, useEffectEvent, useRef } from 'react';
import { api } from './api-client.ts';
import { type Connect, type LockLike, type StreamEvent, startSharedStream } from './shared-stream.ts';

type Payload<K extends TServerEventType> = Extract<TServerEvent, { type: K }>['payload'];
type Handler = (payload: unknown) => void;

interface LiveEvents {
  subscribe(type: TServerEventType, handler: Handler): () => void;
}

const LiveEventsContext = createContext<LiveEvents | null>(null);
const RECONNECT_MS = 3000;
/** Every event type: the leading tab listens for all of them, whatever its own screens need. */
const EVENT_TYPES: string[] = ZServerEvent.options.map((option) => option.shape.type.value);

/**
 * The server stream. EventSource cannot send the bearer header and the session token never goes
 * in a URL, so each connection opens with a single-use ticket (`POST /events/tickets`). A used
 * ticket cannot reconnect, so on any error (a network drop, the server ending the stream of a
 * revoked session) the stream is closed and reopened a little later with a fresh ticket and the
 * last id seen; asking for the ticket with a revoked session logs out.
 */
const connectEventSource: Connect = (startAfter, onEvent) => {
  let source: EventSource | null = null;
  let lastEventId = startAfter;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const listener = (event: MessageEvent<string>) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
    let payload: unknown;
    try {
      payload = JSON.parse(event.data);
    } catch {
      return;
    }
    onEvent({ id: event.lastEventId, type: event.type, payload });
  };
  const reopenLater = () => {
    if (!stopped) timer = setTimeout(() => void open(), RECONNECT_MS);
  };
  const open = async () => {
    let ticket: string;
    try {
      ticket = (await api.post<TAccessTicket>('/events/tickets', undefined, { toast: false })).ticket;
    } catch {
      // A 401/403 has ended the session already (the API client does that); otherwise try again.
      reopenLater();
      return;
    }
    if (stopped) return;
    const params = new URLSearchParams({ ticket });
    if (lastEventId) params.set('lastEventId', lastEventId);
    source = new EventSource(`/api/events?${params}`);
    for (const type of EVENT_TYPES) source.addEventListener(type, listener as EventListener);
    source.onerror = () => {
      if (stopped) return;
      source?.close();
      reopenLater();
    };
  };
  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
};

/**
 * Live events for the signed-in tabs: one stream shared by all of them and closed while a page is
 * hidden (`shared-stream.ts`). All tabs hold the same session (its token is in `localStorage`), so
 * the events one tab's stream receives are every tab's.
 */
export function LiveEventsProvider({ token, children }: { token: string; children: ReactNode }) {
  const handlers = useRef(new Map<TServerEventType, Set<Handler>>());

  useEffect(() => {
    // The ticket request carries the session's token: a new token (password change) reopens.
    if (!token) return;
    const deliver = (event: StreamEvent) => {
      const parsed = ZServerEvent.safeParse({ type: event.type, payload: event.payload });
      if (!parsed.success) return;
      for (const handler of handlers.current.get(parsed.data.type) ?? []) handler(parsed.data.payload);
    };
    const stream = startSharedStream({
      connect: connectEventSource,
      deliver,
      locks: (navigator as Navigator & { locks?: LockLike }).locks ?? null,
      openChannel: typeof BroadcastChannel === 'function' ? (name) => new BroadcastChannel(name) : null,
      page: window,
      lifecycle: document,
    });
    return () => stream.stop();
  }, [token]);

  const value = useRef<LiveEvents>({
    subscribe(type, handler) {
      let set = handlers.current.get(type);
      if (!set) {
        set = new Set();
        handlers.current.set(type, set);
      }
      set.add(handler);
      return () => set.delete(handler);
    },
  }).current;

  return <LiveEventsContext.Provider value={value}>{children}</LiveEventsContext.Provider>;
}

/** Calls `handler` for every live event of `type` while the component is mounted. */
export function useServerEvent<K extends TServerEventType>(type: K, handler: (payload: Payload<K>) => void) {
  const context = useContext(LiveEventsContext);
  const onEvent = useEffectEvent((payload: unknown) => handler(payload as Payload<K>));
  useEffect(() => {
    if (!context) return;
    return context.subscribe(type, (payload) => onEvent(payload));
  }, [context, type]);
}
