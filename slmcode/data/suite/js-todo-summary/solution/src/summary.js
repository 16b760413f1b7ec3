function summary(store) {
  return `${store.count()} todos, ${store.completedCount()} done`;
}

module.exports = { summary };
