"""Small sources per language, shared by the repo map tests. Line numbers in the tests refer to these."""

from __future__ import annotations

PYTHON = '''\
import os

LIMIT = 10


class Store:
    """Keeps things."""

    def put(self, key, value):
        self.items[key] = value

    @property
    def size(self):
        return len(self.items)


def load_store(path):
    def helper():
        return os.path.exists(path)
    return Store()
'''

GO = """\
package store

type Store struct {
	items map[string]int
}

type Reader interface {
	Get(key string) int
}

func (s *Store) Put(key string, value int) {
	s.items[key] = value
}

func NewStore() *Store {
	return &Store{items: map[string]int{}}
}
"""

JAVASCRIPT = """\
class Store {
  constructor() {
    this.items = {};
  }

  put(key, value) {
    this.items[key] = value;
  }
}

function loadStore(path) {
  return new Store();
}

const makeKey = (a, b) => `${a}:${b}`;
"""

TYPESCRIPT = """\
export interface Reader {
  get(key: string): number;
}

export class Store implements Reader {
  private items: Map<string, number> = new Map();

  get(key: string): number {
    return this.items.get(key) ?? 0;
  }
}

export function loadStore(path: string): Store {
  return new Store();
}

export type Key = string;

enum Mode {
  Read,
  Write,
}
"""

RUST = """\
pub struct Store {
    items: Vec<i32>,
}

pub trait Reader {
    fn get(&self, key: usize) -> i32;
}

impl Store {
    pub fn put(&mut self, value: i32) {
        self.items.push(value);
    }
}

pub fn load_store() -> Store {
    Store { items: Vec::new() }
}

enum Mode {
    Read,
    Write,
}
"""

JAVA = """\
package store;

public class Store implements Reader {
    private final int[] items = new int[10];

    public Store() {
    }

    public int get(int key) {
        return items[key];
    }
}

interface Reader {
    int get(int key);
}

enum Mode {
    READ,
    WRITE
}
"""

C = """\
#include <stdio.h>

struct store {
    int items[10];
};

static int
store_get(struct store *s, int key)
{
    return s->items[key];
}
"""

KOTLIN = """\
package store

class Store(val size: Int) {
    fun get(key: Int): Int {
        return key
    }
}

fun loadStore(): Store {
    return Store(1)
}
"""

SOURCES = {
    "store.py": PYTHON,
    "store.go": GO,
    "store.js": JAVASCRIPT,
    "store.ts": TYPESCRIPT,
    "store.rs": RUST,
    "Store.java": JAVA,
    "store.c": C,
    "Store.kt": KOTLIN,
}
