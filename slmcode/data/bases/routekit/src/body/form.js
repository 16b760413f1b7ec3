"use strict";

const { parseContentType } = require("../http/content-type");
const { parseQuery } = require("../url/query");

// Middleware: an application/x-www-form-urlencoded body becomes an object, like a query string.
function formBody() {
  return async (req, res, next) => {
    const { type } = parseContentType(req.header("content-type"));
    if (type === "application/x-www-form-urlencoded" && typeof req.body === "string") {
      req.body = parseQuery(req.body);
    }
    return next();
  };
}

module.exports = { formBody };
