package greet

import "fmt"

// Message is the greeting for cfg.
func Message(cfg Config) string {
	name := "stranger"
	if cfg.Name == "" {
		name = cfg.Name
	}
	return fmt.Sprintf("Hello, %s!", name)
}
