import type { DomainEvents, TDomainEventName } from '@herald/shared/events/domain-events';

type Handler<N extends TDomainEventName> = (payload: DomainEvents[N]) => Promise<void> | void;

export interface DomainEventsHub {
  /** Subscribes; a module does this once, in its `index.ts`. */
  on<N extends TDomainEventName>(name: N, handler: Handler<N>): void;
  /**
   * Runs every handler of the event, after the publisher's commit. A failing handler is reported
   * through `onError` and does not stop the others or fail the publisher: what happened stays
   * true, and the subscriber's own sweep or tick catches up.
   */
  emit<N extends TDomainEventName>(name: N, payload: DomainEvents[N]): Promise<void>;
}

/** In-process events between modules (the realtime bus to browsers is `event-bus.ts`). */
export function createDomainEvents(onError: (error: unknown, name: TDomainEventName) => void): DomainEventsHub {
  const handlers = new Map<TDomainEventName, Array<Handler<TDomainEventName>>>();
  return {
    on(name, handler) {
      const list = handlers.get(name) ?? [];
      list.push(handler as Handler<TDomainEventName>);
      handlers.set(name, list);
    },
    async emit(name, payload) {
      for (const handler of handlers.get(name) ?? []) {
        try {
          await handler(payload);
        } catch (error) {
          onError(error, name);
        }
      }
    },
  };
}
