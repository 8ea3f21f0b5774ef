import { notifications } from '@mantine/notifications';

export function notifySuccess(message: string) {
  notifications.show({ message, color: 'teal' });
}

export function notifyError(title: string, message?: string) {
  notifications.show(message ? { title, message, color: 'red' } : { message: title, color: 'red' });
}
