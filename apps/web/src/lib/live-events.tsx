import { type TServerEvent, type TServerEventType, ZServerEvent } from '@herald/shared/events/events.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useEffectEvent, useRef } from 'react';

type Payload<K extends TServerEventType> = Extract<TServerEvent, { type: K }>['payload'];
type Handler = (payload: unknown) => void;

interface LiveEvents {
  subscribe(type: TServerEventType, handler: Handler): () => void;
}

const LiveEventsContext = createContext<LiveEvents | null>(null);
const RECONNECT_MS = 5000;

/**
 * One `EventSource` per signed-in tab. The browser reconnects by itself (sending Last-Event-ID)
 * after network drops; an HTTP error closes the stream for good, so then the user is re-read
 * (which logs out on 401) and the stream is reopened a little later with the last id seen.
 */
export function LiveEventsProvider({ token, children }: { token: string; children: ReactNode }) {
  const queryClient = useQueryClient();
  const handlers = useRef(new Map<TServerEventType, Set<Handler>>());
  const attach = useRef<(type: TServerEventType) => void>(() => {});

  useEffect(() => {
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

    const open = () => {
      const params = new URLSearchParams({ token });
      if (lastEventId) params.set('lastEventId', lastEventId);
      source = new EventSource(`/api/events?${params}`);
      attached.clear();
      for (const type of handlers.current.keys()) addListener(type);
      source.onerror = () => {
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        void queryClient.invalidateQueries({ queryKey: ['user'] });
        timer = setTimeout(open, RECONNECT_MS);
      };
    };
    open();

    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
      attach.current = () => {};
    };
  }, [token, queryClient]);

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
