const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

function app() {
  const a = new App();
  a.get("/users", (req, res) => res.text("list"));
  a.get("/users/:id", (req, res) => res.text("user " + req.params.id));
  return a;
}

test("trailing slash reaches the route", async () => {
  assert.strictEqual((await app().handle({ url: "/users/" })).body, "list");
  assert.strictEqual((await app().handle({ url: "/users/7/?x=1" })).body, "user 7");
});

test("doubled slashes reach the route", async () => {
  assert.strictEqual((await app().handle({ url: "//users//7" })).body, "user 7");
});

test("other paths still 404", async () => {
  assert.strictEqual((await app().handle({ url: "/users/7/extra" })).status, 404);
});
