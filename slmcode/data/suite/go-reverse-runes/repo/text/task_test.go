package text

import "testing"

func TestReverseKeepsAccentedLetters(t *testing.T) {
	if got := Reverse("añb"); got != "bña" {
		t.Fatalf("got %q", got)
	}
}
