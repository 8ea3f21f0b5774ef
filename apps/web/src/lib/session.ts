import { createStore, useStore } from './external-store.ts';
import { queryClient } from './query-client.ts';

const TOKEN_KEY = 'herald.token';

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The bearer token (spec: kept in browser storage). */
export const tokenStore = createStore<string | null>(readToken());
/** Why the last sign-out happened: an explicit log out does not keep the page to come back to. */
export const signOutReason = { current: 'expired' as 'logout' | 'expired' };
/** Set after a 403 or an unverified e-mail: protected routes show "You're not activated yet." */
export const accessDeniedStore = createStore(false);

export function getToken(): string | null {
  return tokenStore.get();
}

export function startSession(token: string) {
  signOutReason.current = 'expired';
  localStorage.setItem(TOKEN_KEY, token);
  accessDeniedStore.set(false);
  queryClient.clear();
  tokenStore.set(token);
}

/** Replaces the token of the current session (password change issues a new one). */
export function replaceToken(token: string) {
  localStorage.setItem(TOKEN_KEY, token);
  tokenStore.set(token);
}

export function endSession(reason: 'logout' | 'expired') {
  signOutReason.current = reason;
  localStorage.removeItem(TOKEN_KEY);
  tokenStore.set(null);
  accessDeniedStore.set(false);
  queryClient.clear();
}

export function setAccessDenied(value: boolean) {
  accessDeniedStore.set(value);
}

export function useToken() {
  return useStore(tokenStore);
}

export function useAccessDenied() {
  return useStore(accessDeniedStore);
}

// Another tab signed in or out: follow it.
window.addEventListener('storage', (event) => {
  if (event.key !== TOKEN_KEY) return;
  if (event.newValue) {
    if (event.newValue !== tokenStore.get()) {
      queryClient.clear();
      tokenStore.set(event.newValue);
    }
  } else if (tokenStore.get()) {
    signOutReason.current = 'logout';
    tokenStore.set(null);
    queryClient.clear();
  }
});
