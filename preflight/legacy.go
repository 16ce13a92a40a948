package preflight

// destination is the role a legacy announcement's author takes on its first
// role-aware replacement (maintainers.md "Legacy migration").
type destination int

const (
	// destLead: the author's implicit self-relationship becomes an untimed
	// self-M and every legacy listing an untimed m (first add, prepared lead).
	destLead destination = iota
	// destLeadless: --no-lead-maintainer adopts indexed m without M; only the
	// listings are materialized.
	destLeadless
	// destCoMaintainer: the author follows lead; the implicit membership becomes
	// an untimed self-m and an existing listing of the lead an untimed M.
	destCoMaintainer
)

// classifyLegacy materializes a role-less announcement's relationships directly
// in their destination roles, before any transition is generated. It never
// materializes everything as m first and then promotes, and it never invents a
// timestamp: these relationships already existed. A no-op once the
// announcement carries indexed roles.
func (d *draft) classifyLegacy(dest destination, lead string) error {
	if hasIndexedRoles(d.tags) {
		return nil
	}
	listings := legacyListings(d.tags, d.author)
	switch dest {
	case destLead:
		if err := d.materialize("M", d.author); err != nil {
			return err
		}
	case destCoMaintainer:
		if err := d.materialize("m", d.author); err != nil {
			return err
		}
	}
	for _, p := range listings {
		letter := "m"
		if dest == destCoMaintainer && p == lead {
			letter = "M"
		}
		if err := d.materialize(letter, p); err != nil {
			return err
		}
	}
	return nil
}
