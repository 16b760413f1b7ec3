package greet

import "testing"

func TestMessageUsesTheConfiguredName(t *testing.T) {
	if got := Message(Config{Name: "Lin"}); got != "Hello, Lin!" {
		t.Fatalf("got %q", got)
	}
}
