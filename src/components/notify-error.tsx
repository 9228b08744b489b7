/** A red notification with an error's sentences and details (issue 13; error-message.tsx). */
import { notifications } from '@mantine/notifications';
import { ErrorMessage } from './error-message';

/** Shows `error` titled `title` (`Tags not changed`); stays 10 s so the details can be opened. */
export function notifyError(title: string, error: unknown) {
  notifications.show({ color: 'red', title, message: <ErrorMessage error={error} />, autoClose: 10_000 });
}
