/**
 * Counting the records of a CSV (RFC 4180) as its bytes arrive (issue 13: the export's progress in rows, fed with
 * each `DownloadProgress.chunk`). A record ends at a line feed outside double quotes; a quote toggles quoting, so
 * an escaped `""` inside a quoted field leaves it quoted. Works on bytes: in UTF-8 no byte of a multi-byte
 * character is `"` or a line feed. `records` counts the records ended so far; `finish()` adds a last record that
 * has no line end. Framework-free; kept out of the client so the first screens do not carry it.
 */
export function csvRecordCounter() {
  let quoted = false;
  let records = 0;
  let open = false;
  return {
    push(chunk: Uint8Array) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) {
          records++;
          open = false;
          continue;
        }
        open = true;
      }
    },
    get records() {
      return records;
    },
    finish(): number {
      return records + (open ? 1 : 0);
    },
  };
}
