"use strict";

const { safeDecode } = require("../url/encode");

// "a=1; b=two" -> { a: "1", b: "two" }
function parseCookies(header) {
  const cookies = {};
  for (const part of header.split(";")) {
    if (!part.includes("=")) continue;
    const [rawName, rawValue] = part.split("=");
    const name = rawName.trim();
    let value = rawValue.trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name && !(name in cookies)) cookies[name] = safeDecode(value);
  }
  return cookies;
}

function serializeCookie(name, value, options = {}) {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.path) parts.push(`Path=${options.path}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  if (options.sameSite) parts.push(`SameSite=${options.sameSite}`);
  return parts.join("; ");
}

module.exports = { parseCookies, serializeCookie };
