"use strict";

// At most `limit` requests per client per window of `windowMs`; the count starts again in each new window.
class FixedWindow {
  constructor({ limit, windowMs, now = Date.now }) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
    this.clients = new Map();
  }

  // { allowed, remaining, resetAt } for one more request from `key`.
  hit(key) {
    const time = this.now();
    let entry = this.clients.get(key);
    if (!entry) {
      entry = { count: 0, resetAt: time + this.windowMs };
      this.clients.set(key, entry);
    }
    entry.count += 1;
    const allowed = entry.count <= this.limit;
    return { allowed, remaining: Math.max(0, this.limit - entry.count), resetAt: entry.resetAt };
  }
}

function rateLimit({ limit = 60, windowMs = 60000, key = (req) => req.header("x-client-id") || "anon", now } = {}) {
  const window = new FixedWindow({ limit, windowMs, now });
  return async (req, res, next) => {
    const result = window.hit(key(req));
    res.headers.set("x-ratelimit-remaining", result.remaining);
    if (!result.allowed) {
      res.headers.set("retry-after", Math.ceil((result.resetAt - window.now()) / 1000));
      res.text("too many requests", 429);
      return;
    }
    await next();
  };
}

module.exports = { FixedWindow, rateLimit };
