const test = require("node:test");
const assert = require("node:assert");
const { TodoStore } = require("../src/store.js");

    test("count", () => {
      const s = new TodoStore();
      s.add("a");
      assert.strictEqual(s.count(), 1);
    });
