/** Where notifications show; loaded after the first paint (named import keeps the bundle small). */
import { Notifications } from '@mantine/notifications';

export function NotificationsHost() {
  return <Notifications position="top-right" />;
}
