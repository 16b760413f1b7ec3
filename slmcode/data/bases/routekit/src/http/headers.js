"use strict";

// Header names are case-insensitive; values keep their case. Stored under lower-case names.
class Headers {
  constructor(init = {}) {
    this.map = new Map();
    for (const [name, value] of Object.entries(init)) this.set(name, value);
  }

  get(name) {
    return this.map.get(String(name).toLowerCase());
  }

  set(name, value) {
    this.map.set(String(name).toLowerCase(), String(value));
    return this;
  }

  has(name) {
    return this.map.has(String(name).toLowerCase());
  }

  delete(name) {
    this.map.delete(String(name).toLowerCase());
  }

  append(name, value) {
    const current = this.get(name);
    return this.set(name, current === undefined ? value : `${current}, ${value}`);
  }

  toObject() {
    return Object.fromEntries([...this.map.entries()].sort());
  }
}

module.exports = { Headers };
