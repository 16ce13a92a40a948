package preflight

import "testing"

// maintainers.md "Normal two-person workflow", steps 1-5, and the happy-path
// announcements of "Current role tags".
func TestNormalTwoPersonWorkflow(t *testing.T) {
	w := &world{t: t}
	w.announce("alice", 100, []string{"name", "My Project"})

	// 2. Alice invites Bob: first invite materializes Alice as untimed self-M.
	p := w.run("alice", "alice", 1000, Intent{Action: ActAdd, Subject: pk("bob")})
	wantTags(t, p, []string{"name", "My Project"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "1000"}, mt("alice", "bob"))
	sameSet(t, "newly invited", p.Sim.NewlyInvited, "bob")

	// 3. Bob accepts.
	p = w.run("bob", "alice", 2000, Intent{Action: ActAccept})
	wantTags(t, p, []string{"name", "My Project"}, []string{"clone"}, []string{"web"}, []string{"relays"}, mt("alice", "bob"), []string{"M", "<alice>", "2000"}, []string{"m", "<bob>", "2000"})
	sameSet(t, "newly confirmed", p.Sim.NewlyConfirmed, "bob")

	// 4. Alice records Bob's acceptance: only the first start moves.
	p = w.run("alice", "alice", 3000, Intent{Action: ActAcknowledge, Subject: pk("bob")})
	wantTags(t, p, []string{"name", "My Project"}, []string{"M", "<alice>"}, []string{"m", "<bob>", "2000"}, mt("alice", "bob"))
	if r := w.resolve("alice", 3000); len(r.PendingAcknowledgements) != 0 {
		t.Fatalf("pending acknowledgements remain: %+v", r.PendingAcknowledgements)
	}
}
