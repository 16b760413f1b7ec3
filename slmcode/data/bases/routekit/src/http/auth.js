"use strict";

// "Basic dXNlcjpwYXNz" -> { user: "user", password: "pass" }; null when absent or not Basic.
function parseBasicAuth(header) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(String(header || "").trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function bearerToken(header) {
  const match = /^Bearer\s+(\S+)$/i.exec(String(header || "").trim());
  return match ? match[1] : null;
}

module.exports = { parseBasicAuth, bearerToken };
