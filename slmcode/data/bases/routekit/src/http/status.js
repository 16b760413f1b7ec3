"use strict";

const STATUS_TEXT = {
  200: "OK",
  201: "Created",
  204: "No Content",
  206: "Partial Content",
  301: "Moved Permanently",
  302: "Found",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  416: "Range Not Satisfiable",
  429: "Too Many Requests",
  500: "Internal Server Error",
};

function statusText(code) {
  return STATUS_TEXT[code] || "Unknown";
}

function isRedirect(code) {
  return code >= 300 && code < 400 && code !== 304;
}

module.exports = { STATUS_TEXT, statusText, isRedirect };
