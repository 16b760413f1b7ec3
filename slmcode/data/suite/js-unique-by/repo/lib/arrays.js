function last(items) {
  return items[items.length - 1];
}

module.exports = { last };
