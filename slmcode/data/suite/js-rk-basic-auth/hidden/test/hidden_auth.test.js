const test = require("node:test");
const assert = require("node:assert");
const { App, basicAuth } = require("../src");

const login = (user, password) => "Basic " + Buffer.from(`${user}:${password}`).toString("base64");

function app(options) {
  const a = new App().use(basicAuth(options));
  a.get("/admin", (req, res) => res.text("hello " + req.state.user));
  return a;
}

test("valid credentials reach the handler", async () => {
  const res = await app({ users: { ada: "s3cret" } }).handle({ url: "/admin", headers: { authorization: login("ada", "s3cret") } });
  assert.strictEqual(res.status, 200);
  assert.strictEqual(res.body, "hello ada");
});

test("missing or wrong credentials get 401 with the realm", async () => {
  const a = app({ users: { ada: "s3cret" }, realm: "admin area" });
  for (const headers of [{}, { authorization: login("ada", "nope") }, { authorization: login("bob", "s3cret") }]) {
    const res = await a.handle({ url: "/admin", headers });
    assert.strictEqual(res.status, 401);
    assert.strictEqual(res.headers.get("www-authenticate"), 'Basic realm="admin area"');
    assert.ok(!res.body.includes("hello"));
  }
});

test("default realm and inherited names", async () => {
  const res = await app({ users: { ada: "x" } }).handle({ url: "/admin", headers: { authorization: login("toString", "x") } });
  assert.strictEqual(res.status, 401);
  assert.strictEqual(res.headers.get("www-authenticate"), 'Basic realm="restricted"');
});
