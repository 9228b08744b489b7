/**
 * Where notifications show; loaded after the first paint (named import keeps the bundle small). Top right, but
 * below the console's header and below a drawer's header row, so a notification never covers the header's tools
 * or a drawer's close button (issue 14, point 10).
 */
import { Notifications } from '@mantine/notifications';
import classes from './notifications-host.module.css';

export function NotificationsHost() {
  return <Notifications position="top-right" classNames={{ root: classes.root }} />;
}

// Loaded with this host, after the first paint, by lazy-error-message.tsx (see there why not on its own).
export { ErrorMessage } from './error-message';
