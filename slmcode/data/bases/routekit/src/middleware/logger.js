"use strict";

// One line per request: 'GET /users/7 200 3ms'. `write` and `now` are injectable for tests.
function logger({ write = console.log, now = Date.now } = {}) {
  return async (req, res, next) => {
    const started = now();
    await next();
    write(`${req.method} ${req.path} ${res.status} ${now() - started}ms`);
  };
}

module.exports = { logger };
