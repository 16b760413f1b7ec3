"use strict";

// Run middleware in order; each gets next() to run the rest and may act after it returns.
function compose(stack) {
  return function run(req, res, last = async () => {}) {
    let index = -1;
    function dispatch(i) {
      if (i <= index) return Promise.reject(new Error("next() called twice"));
      index = i;
      const fn = i === stack.length ? last : stack[i];
      try {
        return Promise.resolve(fn(req, res, () => dispatch(i + 1)));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return dispatch(0);
  };
}

module.exports = { compose };
