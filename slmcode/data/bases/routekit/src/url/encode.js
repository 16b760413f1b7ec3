"use strict";

// Percent-decoding that never throws: a malformed escape is kept as written.
function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// Form values encode spaces as "+".
function decodeFormComponent(text) {
  return safeDecode(text.replace(/\+/g, " "));
}

module.exports = { safeDecode, decodeFormComponent };
