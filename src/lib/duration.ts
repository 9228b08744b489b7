/** Time left as people say it (issue 13: bulk tags and exports): `75` seconds -> `about 1 min 15 s`. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `about ${s} s`;
  if (s < 3600) return `about ${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `about ${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}
