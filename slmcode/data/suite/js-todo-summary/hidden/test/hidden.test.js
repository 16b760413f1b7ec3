const test = require("node:test");
const assert = require("node:assert");
const { TodoStore } = require("../src/store.js");
    const { summary } = require("../src/summary.js");

    test("completed count and summary", () => {
      const s = new TodoStore();
      s.add("a");
      s.add("b");
      s.add("c");
      s.complete("b");
      assert.strictEqual(s.completedCount(), 1);
      assert.strictEqual(summary(s), "3 todos, 1 done");
    });
