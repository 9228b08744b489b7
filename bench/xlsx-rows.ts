/**
 * Counts the `<row` elements of one worksheet of an xlsx file on disk without loading the workbook: reads the
 * ZIP central directory, then inflates only that sheet's entry as a stream. Used by the API benchmark to check
 * that an xlsx export holds every contact.
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';

type ZipEntry = { method: number; compressedSize: number; localHeaderOffset: number };

async function findEntry(file: string, entryName: string): Promise<ZipEntry> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailSize = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailSize);
    await handle.read(tail, 0, tailSize, size - tailSize);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) throw new Error(`${file}: not a ZIP file (no end of central directory)`);
    const entries = tail.readUInt16LE(eocd + 10);
    const directorySize = tail.readUInt32LE(eocd + 12);
    const directoryOffset = tail.readUInt32LE(eocd + 16);
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    let at = 0;
    for (let i = 0; i < entries; i++) {
      if (directory.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: corrupt central directory`);
      const nameLength = directory.readUInt16LE(at + 28);
      const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
      if (name === entryName) {
        const localHeaderOffset = directory.readUInt32LE(at + 42);
        const local = Buffer.alloc(30);
        await handle.read(local, 0, 30, localHeaderOffset);
        const dataOffset = localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
        return { method: directory.readUInt16LE(at + 10), compressedSize: directory.readUInt32LE(at + 20), localHeaderOffset: dataOffset };
      }
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    throw new Error(`${file}: no entry ${entryName}`);
  } finally {
    await handle.close();
  }
}

/**
 * The number of `<row` elements in `sheetPath` (default the first worksheet) of the xlsx `file`, header row
 * included. Rejects for a file that is not a ZIP or lacks the sheet.
 */
export async function countXlsxRows(file: string, sheetPath = 'xl/worksheets/sheet1.xml'): Promise<number> {
  const entry = await findEntry(file, sheetPath);
  if (entry.method !== 8 && entry.method !== 0) throw new Error(`${file}: unsupported compression method ${entry.method}`);
  const raw = createReadStream(file, { start: entry.localHeaderOffset, end: entry.localHeaderOffset + entry.compressedSize - 1 });
  const xml = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  let rows = 0;
  let carry = '';
  xml.on('data', (chunk: Buffer) => {
    // `carry` (the last 4 characters) can hold a '<row' whose next character is in this chunk, never a
    // match already counted (that takes 5 characters).
    const text = carry + chunk.toString('latin1');
    for (let at = text.indexOf('<row'); at >= 0; at = text.indexOf('<row', at + 4)) {
      const next = text[at + 4];
      if (next === ' ' || next === '>') rows++;
    }
    carry = text.slice(-4);
  });
  raw.on('error', (error) => xml.destroy(error));
  await once(xml, 'end');
  return rows;
}

/** The text (UTF-8) of entry `entryName` of the ZIP `file` (an xlsx part such as `xl/worksheets/sheet1.xml`). */
export async function readZipEntryText(file: string, entryName: string): Promise<string> {
  const entry = await findEntry(file, entryName);
  if (entry.method !== 8 && entry.method !== 0) throw new Error(`${file}: unsupported compression method ${entry.method}`);
  const raw = createReadStream(file, { start: entry.localHeaderOffset, end: entry.localHeaderOffset + entry.compressedSize - 1 });
  const stream = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  raw.on('error', (error) => stream.destroy(error));
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
