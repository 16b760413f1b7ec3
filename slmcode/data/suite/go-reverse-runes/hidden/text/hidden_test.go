package text

import "testing"

func TestReverseRunes(t *testing.T) {
	if got := Reverse("héllo"); got != "olléh" {
		t.Fatalf("got %q", got)
	}
	if got := Reverse("abc"); got != "cba" {
		t.Fatalf("got %q", got)
	}
}
