"use strict";

// A small JSON API with a mounted sub-router, CORS and a rate limit.
const { App, Router, mount, cors, rateLimit } = require("../src");

function buildApi() {
  const users = new Router();
  users.get("/", (req, res) => res.json([{ id: "1" }]));
  users.get("/:id", (req, res) => res.json({ id: req.params.id }));
  const app = new App().use(cors({ origins: ["https://shop.example"] })).use(rateLimit({ limit: 100 }));
  mount(app.router, "/api/users", users);
  return app;
}

module.exports = { buildApi };
