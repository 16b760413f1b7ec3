const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

test("a trailing slash reaches the route", async () => {
  const app = new App();
  app.get("/users", (req, res) => res.text("list"));
  assert.strictEqual((await app.handle({ url: "/users/" })).body, "list");
});
