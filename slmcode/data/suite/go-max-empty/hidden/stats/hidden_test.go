package stats

import "testing"

func TestMax(t *testing.T) {
	got, err := Max([]int{3, -1, 7, 2})
	if err != nil || got != 7 {
		t.Fatalf("got %d, %v", got, err)
	}
	if _, err := Max(nil); err == nil {
		t.Fatal("want an error for an empty slice")
	}
}
