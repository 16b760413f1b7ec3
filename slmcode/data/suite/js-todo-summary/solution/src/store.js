class TodoStore {
  constructor() {
    this.todos = [];
  }

  add(title) {
    this.todos.push({ title, done: false });
  }

  complete(title) {
    const todo = this.todos.find((t) => t.title === title);
    if (todo) todo.done = true;
  }

  count() {
    return this.todos.length;
  }

  completedCount() {
    return this.todos.filter((t) => t.done).length;
  }
}

module.exports = { TodoStore };
