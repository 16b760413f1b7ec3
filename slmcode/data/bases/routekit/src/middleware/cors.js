"use strict";

// Cross-origin headers for the listed origins ("*" for any); preflight OPTIONS requests end here.
function cors({ origins = ["*"], methods = ["GET", "POST"], maxAge = 600 } = {}) {
  return async (req, res, next) => {
    const origin = req.header("origin");
    const allowed = origins.includes("*") ? "*" : origins.includes(origin) ? origin : null;
    if (allowed) {
      res.headers.set("access-control-allow-origin", allowed);
      if (allowed !== "*") res.headers.set("vary", "Origin");
    }
    if (req.method === "OPTIONS" && req.header("access-control-request-method")) {
      res.headers.set("access-control-allow-methods", methods.join(", "));
      res.headers.set("access-control-max-age", maxAge);
      res.empty(204);
      return;
    }
    await next();
  };
}

module.exports = { cors };
