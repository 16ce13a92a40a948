package report

// ErrorBody is the docs/json.md error object {code, message, details,
// commands}; a struct, not a map, so the fields print in that order.
type ErrorBody struct {
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Details  map[string]any `json:"details"`
	Commands []string       `json:"commands"`
}

// ErrorDocument is what a failed command prints with --json: {"error":
// {...}} (docs/json.md).
type ErrorDocument struct {
	Error ErrorBody `json:"error"`
}
