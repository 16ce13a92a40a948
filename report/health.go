package report

// HealthSchema is the JSON schema printed by `roster repo health --json`.
const HealthSchema = "roster.repo-health/v1"

// Health is roster.repo-health/v1 (docs/json.md).
type Health struct {
	Schema     string     `json:"schema"`
	Coordinate Coordinate `json:"coordinate"`
	Healthy    bool       `json:"healthy"`
	Strict     bool       `json:"strict"`
	Errors     int        `json:"errors"`
	Warnings   int        `json:"warnings"`
	Findings   []Finding  `json:"findings"`
	Relays     []Relay    `json:"relays"`
	Complete   bool       `json:"complete"`
}
