"use strict";

const { mimeType } = require("../util/mime");

// Serve files from an in-memory map { "/index.html": "<html>..." } under `prefix`; "/" means index.html.
function serveFiles(files, { prefix = "/" } = {}) {
  return async (req, res, next) => {
    if (req.method !== "GET" || !req.path.startsWith(prefix)) return next();
    let name = "/" + req.path.slice(prefix.length).replace(/^\/+/, "");
    if (name.endsWith("/")) name += "index.html";
    if (!(name in files)) return next();
    res.headers.set("content-type", mimeType(name));
    res.text(files[name], 200);
  };
}

module.exports = { serveFiles };
