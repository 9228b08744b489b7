/**
 * Downloads of the typed client: reading a response body chunk by chunk with progress, and the file name from
 * `Content-Disposition`. Used by `client.downloadContacts` (interface document endpoint 3; docs/decisions.md section 7).
 * Framework-free: `fetch` streams (`response.body.getReader()`) and `Blob` exist in browsers and Node 20.
 */

/** Spreadsheet formats of the contacts export (docs/decisions.md section 7). */
export type DownloadFormat = 'csv' | 'xlsx';

/**
 * Progress of a download: bytes received so far; the total from `Content-Length` or null when unknown (a streamed
 * export has none); and the `chunk` just received (for a caller that reads the bytes as they come, such as the
 * export's CSV row count, src/api/csv-records.ts).
 */
export type DownloadProgress = { receivedBytes: number; totalBytes: number | null; chunk: Uint8Array };

/** A finished download: the bytes as a `Blob` (typed with the response's content type), the file name, and the byte count. */
export type DownloadResult = { blob: Blob; filename: string; bytes: number };

/**
 * The body size in bytes from `Content-Length`, or null when absent, unreadable, or when `Content-Encoding` is
 * set (then the header counts compressed bytes, and `fetch` hands over decompressed ones).
 */
export function contentLength(headers: Headers): number | null {
  const encoding = headers.get('content-encoding');
  if (encoding && encoding.trim().toLowerCase() !== 'identity') return null;
  const value = headers.get('content-length');
  return value !== null && /^\s*\d+\s*$/.test(value) ? Number(value) : null;
}

/**
 * Reads `response.body` to the end with `getReader()`, calling `onProgress` after every non-empty chunk (so
 * `receivedBytes` strictly increases). Returns the chunks and their total size.
 * @throws the abort reason (the AbortError) when `signal` aborts, even after the last chunk arrived; the body is
 *   cancelled so the connection is released. Any other read failure is rethrown as is.
 */
export async function readBody(
  response: Response,
  options: { onProgress?: ((progress: DownloadProgress) => void) | undefined; signal?: AbortSignal | undefined } = {},
): Promise<{ chunks: Uint8Array<ArrayBuffer>[]; bytes: number }> {
  const { onProgress, signal } = options;
  signal?.throwIfAborted();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  if (!response.body) return { chunks, bytes };
  const totalBytes = contentLength(response.headers);
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted(); // a cancelled reader answers done: never hand back a cut-off file
      if (done) break;
      if (value.byteLength === 0) continue;
      chunks.push(value);
      bytes += value.byteLength;
      onProgress?.({ receivedBytes: bytes, totalBytes, chunk: value });
    }
    return { chunks, bytes };
  } catch (error) {
    cancel();
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The file name a `Content-Disposition` header gives: `filename*=UTF-8''...` (RFC 6266/8187, percent-decoded)
 * first, else `filename="..."` (backslash escapes undone) or a bare `filename=token`. Only the last path part
 * is kept (no `/` or `\`), control characters are removed. Null when there is none, or it is empty, `.` or `..`.
 * Example: `attachment; filename="contacts-2026-07-01.csv"` gives `contacts-2026-07-01.csv`.
 */
export function filenameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header);
  const encoded = extended?.[1] ? /^\s*([A-Za-z0-9!#$&+^_`{}~-]+)'[^']*'(.*?)\s*$/.exec(extended[1]) : null;
  if (encoded?.[2] !== undefined) {
    try {
      name = decodeURIComponent(encoded[2]);
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
    if (plain) name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : (plain[2] ?? '').trim();
  }
  if (name === null) return null;
  // eslint-disable-next-line no-control-regex
  const safe = (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return safe === '' || safe === '.' || safe === '..' ? null : safe;
}
