"use strict";

const UNITS = { b: 1, kb: 1024, mb: 1024 * 1024, gb: 1024 * 1024 * 1024 };

// "1mb" -> 1048576; a number is already bytes.
function parseSize(size) {
  if (typeof size === "number") return size;
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(String(size).trim());
  if (!match) throw new Error(`not a size: ${size}`);
  return Math.floor(Number(match[1]) * UNITS[(match[2] || "b").toLowerCase()]);
}

class PayloadTooLarge extends Error {
  constructor(limit) {
    super(`body larger than ${limit} bytes`);
    this.status = 413;
  }
}

function checkLimit(body, limit) {
  const max = parseSize(limit);
  if (Buffer.byteLength(body || "") > max) throw new PayloadTooLarge(max);
}

module.exports = { parseSize, checkLimit, PayloadTooLarge };
