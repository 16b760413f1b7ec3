"use strict";

// 32-bit FNV-1a over the UTF-8 bytes of a string: small and stable, for ETags, not for security.
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(String(text), "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

module.exports = { fnv1a };
