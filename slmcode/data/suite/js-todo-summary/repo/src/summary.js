function summary(store) {
  return `${store.count()} todos`;
}

module.exports = { summary };
