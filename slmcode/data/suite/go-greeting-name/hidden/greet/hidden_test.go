package greet

import "testing"

func TestMessage(t *testing.T) {
	if got := Message(Config{Name: "Ada"}); got != "Hello, Ada!" {
		t.Fatalf("got %q", got)
	}
	if got := Message(Config{}); got != "Hello, stranger!" {
		t.Fatalf("got %q", got)
	}
}
