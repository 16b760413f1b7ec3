package stats

import "errors"

// Sum adds the values.
func Sum(values []int) int {
	total := 0
	for _, v := range values {
		total += v
	}
	return total
}

// Max returns the largest value, or an error for an empty slice.
func Max(values []int) (int, error) {
	if len(values) == 0 {
		return 0, errors.New("no values")
	}
	best := values[0]
	for _, v := range values[1:] {
		if v > best {
			best = v
		}
	}
	return best, nil
}
