"use strict";

// A Server-Timing header with the time spent below this middleware.
function timing({ now = Date.now, name = "app" } = {}) {
  return async (req, res, next) => {
    const started = now();
    await next();
    res.headers.append("server-timing", `${name};dur=${now() - started}`);
  };
}

module.exports = { timing };
