"use strict";

// node examples/hello.js -- prints what the app answers to a few requests.
const { App, errorHandler, jsonBody } = require("../src");

const app = new App().use(errorHandler()).use(jsonBody());
app.get("/", (req, res) => res.text("hello"));
app.get("/users/:id", (req, res) => res.json({ id: req.params.id }));
app.post("/echo", (req, res) => res.json(req.body));

(async () => {
  for (const request of [{ url: "/" }, { url: "/users/7" }, { method: "DELETE", url: "/users/7" }]) {
    const res = await app.handle(request);
    console.log(request.method || "GET", request.url, res.status, res.body);
  }
})();
