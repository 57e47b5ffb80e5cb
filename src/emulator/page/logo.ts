/**
 * The integration icon (§2.1: 400x272, png): a real PNG, encoded once per process, so the page's `<img>` loads and
 * a browser test can see that it did.
 */
import { crc32, deflateSync } from 'node:zlib';

export const LOGO_WIDTH = 400;
export const LOGO_HEIGHT = 272;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function encodeLogo(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(LOGO_WIDTH, 0);
  ihdr.writeUInt32BE(LOGO_HEIGHT, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour RGB
  const row = Buffer.alloc(1 + LOGO_WIDTH * 3);
  const rows: Buffer[] = [];
  for (let y = 0; y < LOGO_HEIGHT; y += 1) {
    for (let x = 0; x < LOGO_WIDTH; x += 1) {
      const inMark = (x - 200) ** 2 + (y - 136) ** 2 < 90 ** 2;
      row.writeUInt8(inMark ? 0xff : 0x24, 1 + x * 3);
      row.writeUInt8(inMark ? 0xb0 : 0x4a, 2 + x * 3);
      row.writeUInt8(inMark ? 0x20 : 0x8c, 3 + x * 3);
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let logo: Buffer | undefined;

export function logoPng(): Buffer {
  logo ??= encodeLogo();
  return logo;
}
