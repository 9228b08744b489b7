/**
 * Hands `blob` to the browser as a download named `filename` (an object URL on a temporary link, revoked after
 * 10 s). For files made in the page: the contacts export, the import report.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
