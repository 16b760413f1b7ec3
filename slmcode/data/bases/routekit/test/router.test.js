const test = require("node:test");
const assert = require("node:assert");
const { Router } = require("../src/router/router");

test("matches params", () => {
  const router = new Router().get("/users/:id", "user");
  const found = router.match("GET", "/users/42");
  assert.strictEqual(found.handler, "user");
  assert.deepStrictEqual(found.params, { id: "42" });
});

test("wrong method is 405 with the allowed ones", () => {
  const router = new Router().get("/users", "list").post("/users", "create");
  assert.deepStrictEqual(router.match("DELETE", "/users").status, 405);
});

test("unknown path is 404", () => {
  assert.strictEqual(new Router().get("/a", "a").match("GET", "/b").status, 404);
});
