const test = require("node:test");
const assert = require("node:assert");
const { uniqueBy } = require("../lib/arrays.js");

    test("by id", () => {
      const got = uniqueBy([{ id: 1, n: "a" }, { id: 2, n: "b" }, { id: 1, n: "c" }], (x) => x.id);
      assert.deepStrictEqual(got.map((x) => x.n), ["a", "b"]);
    });
    test("by length", () => assert.deepStrictEqual(uniqueBy(["aa", "b", "cc", "d"], (s) => s.length), ["aa", "b"]));
