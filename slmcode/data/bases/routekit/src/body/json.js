"use strict";

const { isJson } = require("../http/content-type");
const { checkLimit } = require("./limit");

class BadJson extends Error {
  constructor(message) {
    super(`invalid JSON body: ${message}`);
    this.status = 400;
  }
}

// Middleware: req.body parsed when the request says it is JSON.
function jsonBody({ limit = "100kb" } = {}) {
  return async (req, res, next) => {
    if (isJson(req.header("content-type")) && typeof req.body === "string" && req.body !== "") {
      checkLimit(req.body, limit);
      try {
        req.body = JSON.parse(req.body);
      } catch (error) {
        throw new BadJson(error.message);
      }
    }
    return next();
  };
}

module.exports = { jsonBody, BadJson };
