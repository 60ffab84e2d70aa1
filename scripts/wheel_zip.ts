/**
 * A minimal ZIP writer for scripts/build_wheel.ts: deflated entries, Unix
 * modes kept (the engine binary must stay executable), fixed timestamps so
 * the same inputs make the same wheel.
 *
 * @module
 */
import { deflateRawSync } from "node:zlib";

/** One file of the archive. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** Unix permission bits, e.g. 0o755. */
  mode: number;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 a ZIP entry carries. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// 1980-01-01 00:00, the earliest time a ZIP entry can say.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

function header(size: number, fill: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(size);
  fill(new DataView(bytes.buffer));
  return bytes;
}

/** The archive's bytes, as chunks to write in order. */
export function zip(entries: readonly ZipEntry[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const packed = deflateRawSync(entry.data, { level: 6 });
    const crc = crc32(entry.data);
    const common = (view: DataView, at: number) => {
      view.setUint16(at, 20, true); // version needed
      view.setUint16(at + 2, 0x0800, true); // UTF-8 names
      view.setUint16(at + 4, 8, true); // deflate
      view.setUint16(at + 6, 0, true);
      view.setUint16(at + 8, DOS_DATE, true);
      view.setUint32(at + 10, crc, true);
      view.setUint32(at + 14, packed.length, true);
      view.setUint32(at + 18, entry.data.length, true);
      view.setUint16(at + 22, name.length, true);
    };
    chunks.push(
      header(30, (view) => {
        view.setUint32(0, 0x04034b50, true);
        common(view, 4);
      }),
      name,
      packed,
    );
    central.push(
      header(46, (view) => {
        view.setUint32(0, 0x02014b50, true);
        view.setUint16(4, (3 << 8) | 20, true); // made by Unix
        common(view, 6);
        view.setUint32(38, ((0o100000 | entry.mode) << 16) >>> 0, true);
        view.setUint32(42, offset, true);
      }),
      name,
    );
    offset += 30 + name.length + packed.length;
  }
  const size = central.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = header(22, (view) => {
    view.setUint32(0, 0x06054b50, true);
    view.setUint16(8, entries.length, true);
    view.setUint16(10, entries.length, true);
    view.setUint32(12, size, true);
    view.setUint32(16, offset, true);
  });
  return [...chunks, ...central, end];
}
