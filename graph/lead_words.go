package graph

// Words says a lead source in the words every human output uses, so
// `roster repo`, a preview and a refusal describe a lead the same way
// (JSON keeps the LeadSource value itself).
func (s LeadSource) Words() string {
	switch s {
	case LeadImplicitSole:
		return "implicit: the sole maintainer"
	case LeadExplicit:
		return "explicit"
	case LeadLegacyInferred:
		return "legacy-inferred from maintainers listings"
	case LeadExplicitNone:
		return "none: deliberately leadless"
	case LeadNone:
		return "unresolved: legacy listings have no unique winner"
	case LeadPending:
		return "unresolved: the lead pointer path is pending"
	case LeadConflict:
		return "unresolved: the lead pointer path conflicts"
	}
	return string(s)
}
