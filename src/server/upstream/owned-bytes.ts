// Moving bytes to another thread (postMessage's transfer list) moves their whole ArrayBuffer and
// leaves it empty here. Node hands out small buffers as views into one shared pool, and a body
// read in one chunk may be a view into a larger one: moving those would empty memory that other
// values still use. So only a buffer that is its ArrayBuffer, whole, is moved; any other is
// copied into one of its own first. What arrives on the other side is a plain Uint8Array (a
// Buffer's methods do not travel): `bufferView` puts them back without a copy.

/** `bytes` when they fill their ArrayBuffer exactly, otherwise a copy that does. */
export function ownedWhole(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}

/** A Buffer over the same memory as `bytes`, as they arrive from another thread. */
export function bufferView(bytes: Uint8Array): Buffer<ArrayBuffer> {
  return Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}
