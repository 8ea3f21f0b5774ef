import { Alert } from '@mantine/core';
import { translateMessage } from '../lib/i18n.ts';

/** Messages of a failed submit that belong to no field (e.g. an expired link's `token`). */
export function FormAlert({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" role="alert">
      {messages.map((m) => (
        <div key={m}>{translateMessage(m)}</div>
      ))}
    </Alert>
  );
}
