import type { TestApp } from './test-app.ts';

export const PASSWORD = 'Secret-pass1';
let counter = 0;

export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@example.com`;
}

/** Signs up a team owner and follows the verification link from the mail folder. */
export async function signupVerified(t: TestApp, email = uniqueEmail('owner'), name = 'Olena Owner') {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { name, email, password: PASSWORD, password_confirmation: PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.body}`);
  const link = t.lastMailTo(email).links.find((l) => l.includes('/verify-email'));
  const token = new URL(link as string).searchParams.get('token');
  const verified = await t.request({ method: 'POST', url: '/api/auth/email/verify', payload: { token } });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const user = await t.request({ method: 'GET', url: '/api/user', token: res.json().access_token });
  return { token: res.json().access_token as string, email, user: user.json() as { id: number; team_id: number } };
}

/** Invites `email` with `role` and registers through the mailed link. */
export async function addMember(
  t: TestApp,
  ownerToken: string,
  role: 'team_admin' | 'team_operator',
  email = uniqueEmail(role),
) {
  const invited = await t.request({
    method: 'POST',
    url: '/api/invitations',
    token: ownerToken,
    payload: { email, role },
  });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.body}`);
  const link = t.lastMailTo(email).links.find((l) => l.includes('/invite/')) as string;
  const inviteToken = link.split('/invite/')[1];
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/invite/register',
    payload: { name: `Member ${role}`, email, password: PASSWORD, password_confirmation: PASSWORD, token: inviteToken },
  });
  if (res.statusCode !== 201) throw new Error(`invite register failed: ${res.body}`);
  const user = await t.request({ method: 'GET', url: '/api/user', token: res.json().access_token });
  return { token: res.json().access_token as string, email, user: user.json() as { id: number; team_id: number } };
}
