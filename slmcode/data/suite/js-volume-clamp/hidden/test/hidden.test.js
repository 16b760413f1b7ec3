const test = require("node:test");
const assert = require("node:assert");
const { Player } = require("../src/player.js");

    test("upper limit", () => assert.strictEqual(new Player().setVolume(150), 100));
    test("lower limit", () => assert.strictEqual(new Player().setVolume(-5), 0));
    test("in range", () => assert.strictEqual(new Player().setVolume(30), 30));
