import type { TAccessTicket } from '@herald/shared/auth/tickets.schemas';
import { type TServerEvent, type TServerEventType, ZServerEvent } from '@herald/shared/events/events.schemas';
import { createContext, type ReactNode, useContext, useEffect, useEffectEvent, useRef } from 'react';
import { api } from './api-client.ts';

type Payload<K extends TServerEventType> = Extract<TServerEvent, { type: K }>['payload'];
type Handler = (payload: unknown) => void;

interface LiveEvents {
  subscribe(type: TServerEventType, handler: Handler): () => void;
}

const LiveEventsContext = createContext<LiveEvents | null>(null);
const RECONNECT_MS = 3000;

/**
 * One `EventSource` per signed-in tab. EventSource cannot send the bearer header and the session
 * token never goes in a URL, so each connection opens with a single-use ticket
 * (`POST /events/tickets`). A used ticket cannot reconnect, so on any error (a network drop, the
 * server ending the stream of a revoked session) the stream is closed and reopened a little later
 * with a fresh ticket and the last id seen; asking for the ticket with a revoked session logs out.
 */
export function LiveEventsProvider({ token, children }: { token: string; children: ReactNode }) {
  const handlers = useRef(new Map<TServerEventType, Set<Handler>>());
  const attach = useRef<(type: TServerEventType) => void>(() => {});

  useEffect(() => {
    // The ticket request carries the session's token: a new token (password change) reopens.
    if (!token) return;
    let source: EventSource | null = null;
    let lastEventId = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const attached = new Set<TServerEventType>();

    const listener = (event: MessageEvent<string>) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      let payload: unknown;
      try {
        payload = JSON.parse(event.data);
      } catch {
        return;
      }
      const parsed = ZServerEvent.safeParse({ type: event.type, payload });
      if (!parsed.success) return;
      for (const handler of handlers.current.get(parsed.data.type) ?? []) handler(parsed.data.payload);
    };

    const addListener = (type: TServerEventType) => {
      if (!source || attached.has(type)) return;
      attached.add(type);
      source.addEventListener(type, listener as EventListener);
    };
    attach.current = addListener;

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
      attached.clear();
      for (const type of handlers.current.keys()) addListener(type);
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
      attach.current = () => {};
    };
  }, [token]);

  const value = useRef<LiveEvents>({
    subscribe(type, handler) {
      let set = handlers.current.get(type);
      if (!set) {
        set = new Set();
        handlers.current.set(type, set);
      }
      set.add(handler);
      attach.current(type);
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
