import { t } from '@/i18n/i18n';

/**
 * Time left as people say it (issue 13: bulk tags and exports), in the language shown (the `shell` catalog area,
 * loaded with every workspace page): `75` seconds -> `about 1 min 15 s` (`omtrent 1 min 15 s`).
 */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('shell.aboutSeconds', { seconds: s });
  if (s < 3600) return t('shell.aboutMinutes', { minutes: Math.floor(s / 60), seconds: s % 60 });
  return t('shell.aboutHours', { hours: Math.floor(s / 3600), minutes: Math.round((s % 3600) / 60) });
}
