"use strict";

// "text/html; charset=UTF-8" -> { type: "text/html", charset: "utf-8" }
function parseContentType(header) {
  const [type, ...params] = String(header || "").split(";");
  const result = { type: type.trim().toLowerCase(), charset: null };
  for (const param of params) {
    const [key, value] = param.split("=").map((s) => s.trim());
    if (key.toLowerCase() === "charset" && value) result.charset = value.replace(/"/g, "").toLowerCase();
  }
  return result;
}

function isJson(header) {
  const { type } = parseContentType(header);
  return type === "application/json" || type.endsWith("+json");
}

module.exports = { parseContentType, isJson };
