// One buffer for every small file read whole (session logs and their companions): the bytes are checked and
// decoded as soon as they are read, so the next read may reuse it. A fresh buffer per file put 100k short-lived
// ArrayBuffers outside the heap in a cold index, each tracked and freed by the collector.

let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** A buffer of at least `size` bytes, valid until the next call. */
export function scratchBuffer(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, scratch.length * 2));
  return scratch;
}
