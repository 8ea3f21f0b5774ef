import { createContext, type ReactNode, useContext } from 'react';

const ActionsLocked = createContext(false);

/**
 * Whether the team has no subscription in force: context-menu actions are then disabled (spec
 * section 6). Provided by the signed-in frame from the current user; features read it here, so
 * none of them depends on where subscriptions come from.
 */
export function ActionsLockedProvider({ locked, children }: { locked: boolean; children: ReactNode }) {
  return <ActionsLocked.Provider value={locked}>{children}</ActionsLocked.Provider>;
}

export function useActionsLocked(): boolean {
  return useContext(ActionsLocked);
}
