/**
 * Where notifications show; loaded after the first paint (named import keeps the bundle small).
 *
 * Bottom left (issue 23 point 12): over the foot of the sections sidebar and the start of the page, where nothing
 * acts. Top right (before) they covered the page's own action buttons (New product, Import, Export) after a save,
 * and a drawer's close button until issue 14 moved them below it; bottom right would cover a drawer's Save and
 * Cancel, bottom centre the paging bar's controls of a long list. A drawer opens on the right, so bottom left is
 * free of it too (e2e/console-layout.spec.ts checks both by bounding boxes).
 */
import { Notifications } from '@mantine/notifications';
import classes from './notifications-host.module.css';

export function NotificationsHost() {
  return <Notifications position="bottom-left" classNames={{ root: classes.root }} />;
}

// Loaded with this host, after the first paint, by lazy-error-message.tsx (see there why not on its own).
export { ErrorMessage } from './error-message';
