package stats

import "testing"

func TestMaxOfEmptyIsAnError(t *testing.T) {
	if _, err := Max([]int{}); err == nil {
		t.Fatal("want an error for an empty slice")
	}
}
