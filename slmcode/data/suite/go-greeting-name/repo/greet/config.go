package greet

// Config holds the greeter's settings.
type Config struct {
	Name string
}
