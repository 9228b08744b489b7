import { t } from '@/i18n/i18n';

/**
 * Time left as people say it (issue 13: bulk tags and exports), in the language shown (the `tools` catalog area:
 * loaded with the header tools at a page's first interaction, which starts any bulk change or export, and with the
 * jobs page): `75` seconds -> `about 1 min 15 s` (`omtrent 1 min 15 s`).
 */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('tools.aboutSeconds', { seconds: s });
  if (s < 3600) return t('tools.aboutMinutes', { minutes: Math.floor(s / 60), seconds: s % 60 });
  return t('tools.aboutHours', { hours: Math.floor(s / 3600), minutes: Math.round((s % 3600) / 60) });
}
