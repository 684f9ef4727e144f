// A ustar archive, written as a stream of buffers: a 512-byte header per file, its bytes padded to 512, and
// two empty blocks at the end. Enough for a download of several logs as one file.

const BLOCK = 512;

function field(header: Buffer, at: number, length: number, value: string): void {
  header.write(value.slice(0, length), at, length, 'utf8');
}

const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`;

/** The header of one regular file; `name` is at most 100 bytes of UTF-8. */
export function tarHeader(name: string, size: number, mtimeMs: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  field(h, 0, 100, name);
  field(h, 100, 8, '0000644\0');
  field(h, 108, 8, '0000000\0');
  field(h, 116, 8, '0000000\0');
  field(h, 124, 12, octal(size, 12));
  field(h, 136, 12, octal(Math.floor(mtimeMs / 1000), 12));
  field(h, 148, 8, '        ');
  field(h, 156, 1, '0');
  field(h, 257, 6, 'ustar\0');
  field(h, 263, 2, '00');
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** Zeros after a file of `size` bytes, up to the next block. */
export const tarPadding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The archive's end: two empty blocks. */
export const tarEnd = (): Buffer => Buffer.alloc(BLOCK * 2);
