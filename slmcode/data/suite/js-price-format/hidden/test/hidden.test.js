const test = require("node:test");
const assert = require("node:assert");
const { money } = require("../lib/format.js");
    const { lineItem } = require("../lib/page.js");

    test("under a dollar", () => assert.strictEqual(money(0.5), "$0.50"));
    test("whole", () => assert.strictEqual(money(3), "$3.00"));
    test("cents", () => assert.strictEqual(money(12.34), "$12.34"));
    test("line", () => assert.strictEqual(lineItem("tea", 0.5), "tea: $0.50"));
