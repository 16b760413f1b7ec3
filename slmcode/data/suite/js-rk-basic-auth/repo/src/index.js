"use strict";

module.exports = {
  ...require("./app"),
  ...require("./router/router"),
  ...require("./router/mount"),
  ...require("./http/request"),
  ...require("./http/response"),
  ...require("./http/headers"),
  ...require("./http/cookies"),
  ...require("./http/negotiate"),
  ...require("./middleware/cors"),
  ...require("./middleware/ratelimit"),
  ...require("./middleware/etag"),
  ...require("./middleware/errors"),
  ...require("./middleware/logger"),
  ...require("./body/json"),
  ...require("./body/form"),
  ...require("./url/query"),
};
