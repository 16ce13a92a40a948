package report

// HealthSchema is the JSON schema printed by `roster repo health --json`.
const HealthSchema = "roster.repo-health/v1"

// Health is roster.repo-health/v1 (docs/json.md).
type Health struct {
	Schema     string     `json:"schema"`
	Coordinate Coordinate `json:"coordinate"`
	Healthy    bool       `json:"healthy"`
	Strict     bool       `json:"strict"`
	// StrictScope is "maintainers" (--strict: warnings the current
	// maintainers can act on fail) or "all" (--strict=all); null without.
	StrictScope *string `json:"strict_scope"`
	Errors      int     `json:"errors"`
	Warnings    int     `json:"warnings"`
	// GatingWarnings counts the warnings that fail the chosen --strict.
	GatingWarnings int       `json:"gating_warnings"`
	Findings       []Finding `json:"findings"`
	Relays         []Relay   `json:"relays"`
	Complete       bool      `json:"complete"`
	// GitServers compares each advertised clone server with the
	// published state ([] with --no-git-servers or without a state).
	GitServers []GitServer `json:"git_servers"`
}
