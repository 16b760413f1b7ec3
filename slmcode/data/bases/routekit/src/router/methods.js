"use strict";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

function normalizeMethod(method) {
  const upper = String(method || "GET").toUpperCase();
  if (!METHODS.includes(upper)) throw new Error(`unsupported method ${method}`);
  return upper;
}

module.exports = { METHODS, normalizeMethod };
