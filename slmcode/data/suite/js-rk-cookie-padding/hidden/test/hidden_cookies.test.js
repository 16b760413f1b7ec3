const test = require("node:test");
const assert = require("node:assert");
const { App } = require("../src");

test("base64 cookie values keep their padding", async () => {
  const app = new App();
  app.get("/me", (req, res) => res.json(req.cookies));
  const res = await app.handle({ url: "/me", headers: { Cookie: "theme=dark; sid=dXNlcjo0Mg==; x=a=b=c" } });
  assert.deepStrictEqual(JSON.parse(res.body), { theme: "dark", sid: "dXNlcjo0Mg==", x: "a=b=c" });
});
