"use strict";

const { safeDecode } = require("../url/encode");

// Path parameters arrive percent-encoded ("my%20report"); handlers get them decoded.
function decodeParams(raw) {
  const params = {};
  for (const [name, value] of Object.entries(raw)) params[name] = safeDecode(value);
  return params;
}

module.exports = { decodeParams };
