package signrules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"testing"
)

// step is one link of the path from a signing site to the journal: the
// function Func of File calls Calls ("track.Begin", ".journalBegin" for a
// method on any receiver, or "begin" for a function of the same package).
type step struct{ File, Func, Calls string }

// allowed is what a signing site may be. Exactly one of Journaled, Exempt
// and Pending is set.
type allowed struct {
	// Journaled: the event is kept in the journal before it is sent; the
	// steps lead from the site to journal/track.Begin (or, for the NIP-SW
	// import kept by workspace/pending, to its journal's Begin), each
	// checked in the code.
	Journaled []step
	// Exempt says why the site is not a write the journal keeps.
	Exempt string
	// Pending names who journals the site and what it signs, while that
	// work is not merged. At merge time the lead moves each row to
	// Journaled (with its steps) or deletes it: the table is the list to
	// tighten.
	Pending string
}

// allowedSites is every place the module's non-test code signs a Nostr
// event, with why it may. A new signing site fails the test until it is
// added here: journaled, or with the reason it is not.
var allowedSites = map[site]allowed{
	// The repository writes: journaled.
	{"announce/announce.go", "Pipeline.Run"}: {Journaled: []step{{"announce/announce.go", "Pipeline.Run", "track.Begin"}}},
	{"membership/outcome.go", "Pipeline.signAndPublish"}: {Journaled: []step{
		{"membership/outcome.go", "Pipeline.signAndPublish", ".journalBegin"}, {"membership/journal.go", "Pipeline.journalBegin", "track.Begin"}}},
	{"membership/state.go", "Pipeline.signState"}: {Journaled: []step{
		// signState's event is kept with the announcement, in one write.
		{"membership/outcome.go", "Pipeline.signAndPublish", ".signState"},
		{"membership/outcome.go", "Pipeline.signAndPublish", ".journalBegin"}, {"membership/journal.go", "Pipeline.journalBegin", "track.Begin"}}},
	{"statepub/statepub.go", "Pipeline.publish"}: {Journaled: []step{
		{"statepub/statepub.go", "Pipeline.publish", ".journalBegin"}, {"statepub/journal.go", "Pipeline.journalBegin", "track.Begin"}}},

	// NIP-SW: the import is kept by workspace/pending, every other command
	// and the empty source event of `workspace create` by pipeline.Keep.
	{"workspace/sections/write.go", "Session.SignCommand"}: {Journaled: []step{
		{"workspace/sections/write.go", "Session.submit", ".SignCommand"}, {"workspace/sections/write.go", "Session.submit", "pipeline.Keep"},
		{"workspace/pipeline/journal.go", "Keep", "track.Begin"},
		{"workspace/sections/importer.go", "Session.importSource", ".SignCommand"}, {"workspace/sections/importer.go", "Session.importSource", ".Keep"},
		{"workspace/pending/pending.go", "Dir.Keep", ".Begin"}}},
	{"workspace/sections/legacy.go", "NewLegacySource"}: {Journaled: []step{
		{"workspace/sections/importer.go", "Session.Create", "pipeline.Keep"}, {"workspace/pipeline/journal.go", "Keep", "track.Begin"}}},
	// NIP-PC: the change, the identity and its deletion, by pipeline.Keep.
	{"workspace/projects/submit.go", "Change"}: {Journaled: []step{
		{"workspace/projects/submit.go", "Change", "pipeline.Keep"}, {"workspace/pipeline/journal.go", "Keep", "track.Begin"}}},
	{"workspace/projects/publish.go", "IdentityInput.submit"}: {Journaled: []step{
		{"workspace/projects/publish.go", "IdentityInput.submit", "pipeline.Keep"}, {"workspace/pipeline/journal.go", "Keep", "track.Begin"}}},
	{"internal/cli/project/change.go", "projectChange"}: {Journaled: []step{
		{"internal/cli/project/change.go", "projectChange", "projects.Change"},
		{"workspace/projects/submit.go", "Change", "pipeline.Keep"}, {"workspace/pipeline/journal.go", "Keep", "track.Begin"}}},
	{"internal/cli/project/identity.go", "projectIdentityWrite"}: {Journaled: []step{
		{"internal/cli/project/identity.go", "NewCmdCreate", "projects.Create"}, {"workspace/projects/publish.go", "Create", ".submit"},
		{"internal/cli/project/identity.go", "NewCmdUpdate", "projects.Update"}, {"workspace/projects/publish.go", "Update", ".submit"},
		{"internal/cli/project/identity.go", "NewCmdDelete", "projects.Delete"}, {"workspace/projects/publish.go", "Delete", ".submit"},
		{"workspace/projects/publish.go", "IdentityInput.submit", "pipeline.Keep"}, {"workspace/pipeline/journal.go", "Keep", "track.Begin"}}},
	// NIP-29: every moderation step is signed before the first is sent
	// and kept together (journal/track.Begin); the join and leave
	// requests 9021/9022 and the kind 10009 groups list likewise.
	{"workspace/groups/moderate.go", "Prepared.Send"}: {Journaled: []step{{"workspace/groups/moderate.go", "Prepared.Send", "track.Begin"}}},
	{"workspace/groups/request.go", "request"}:        {Journaled: []step{{"workspace/groups/request.go", "request", "track.Begin"}}},
	{"workspace/groups/save.go", "SaveList"}:          {Journaled: []step{{"workspace/groups/save.go", "SaveList", "track.Begin"}}},
	{"internal/cli/group/join.go", "groupRequest"}: {Journaled: []step{
		{"internal/cli/group/join.go", "groupRequest", "groups.Join"}, {"internal/cli/group/join.go", "groupRequest", "groups.Leave"},
		{"workspace/groups/request.go", "Join", "request"}, {"workspace/groups/request.go", "Leave", "request"},
		{"workspace/groups/request.go", "request", "track.Begin"}}},
	{"internal/cli/group/join.go", "groupListChange"}: {Journaled: []step{
		{"internal/cli/group/join.go", "groupListChange", "groups.SaveList"}, {"workspace/groups/save.go", "SaveList", "track.Begin"}}},
	{"internal/cli/group/moderate.go", "groupModerate"}: {Journaled: []step{
		{"internal/cli/group/moderate.go", "groupModerate", ".Send"}, {"workspace/groups/moderate.go", "Prepared.Send", "track.Begin"}}},

	// Not writes the journal keeps.
	{"internal/cli/cmdutil/pool.go", "Factory.AuthSigner"}:      {Exempt: "NIP-42 AUTH (kind 22242): a per-connection challenge answer, never published or resent"},
	{"signer/bunker.go", "BunkerSigner.rpc"}:                    {Exempt: "a NIP-46 request (kind 24133) signed with the session's throwaway client key, not the user's event"},
	{"signer/key.go", "KeySigner.SignEvent"}:                    {Exempt: "the signer's implementation: every site above calls it"},
	{"signer/encrypted.go", "EncryptedSigner.SignEvent"}:        {Exempt: "the signer's implementation (decrypts, then KeySigner)"},
	{"golden/golden.go", "Scenario.Build"}:                      {Exempt: "golden scenarios: fixture events signed with test keys"},
	{"workspace/testkeys/testkeys.go", "Sign"}:                  {Exempt: "test helper: only tests import workspace/testkeys"},
	{"workspace/testkeys/sybils.go", "sybil"}:                   {Exempt: "test helper: only tests import workspace/testkeys"},
	{"devrelay/relay.go", "Relay.env"}:                          {Exempt: "the dev relay's own key (NIP-11 self): relay-signed projections and group state"},
	{"devrelay/grouprelay/grouprelay.go", "Authority.emit"}:     {Exempt: "the dev relay's own key: NIP-29 39000-series group state"},
	{"devrelay/grouprelay/requests.go", "Authority.transition"}: {Exempt: "the dev relay's own key: NIP-29 membership it applies"},
	{"devrelay/pcrelay/projection.go", "Authority.project"}:     {Exempt: "the dev relay's own key: NIP-PC Project State"},
	{"devrelay/swrelay/state.go", "workspace.projection"}:       {Exempt: "the dev relay's own key: NIP-SW projection"},
	{"devrelay/swrelay/state.go", "workspace.forReader"}:        {Exempt: "the dev relay's own key: NIP-SW projection per reader"},
	{"devrelay/misbehave.go", "Relay.mangle"}:                   {Exempt: "the dev relay's misbehaviour: forged copies for tests"},
	{"devrelay/misbehave_hostile.go", "Relay.strangerEvents"}:   {Exempt: "the dev relay's misbehaviour: strangers' events for tests"},
	{"devrelay/relaytest/relaytest.go", "Connect"}:              {Exempt: "test helper: NIP-42 AUTH to the dev relay"},
	{"devrelay/demo.go", "SeedDemoWith"}:                        {Exempt: "`roster dev relay --seed demo`: the demo's fixture events, signed with demo keys, stored directly"},
	{"devrelay/demo_issue.go", "seedIssue"}:                     {Exempt: "`roster dev relay --seed demo`: fixture events with demo keys"},
	{"devrelay/demo_spaces.go", "seedSpaces"}:                   {Exempt: "`roster dev relay --seed demo`: fixture workspaces with demo keys"},
}

// Rule (every event roster signs is journaled): each place the non-test
// code signs an event is in allowedSites; a journaled site's path to the
// journal is in the code (each step's call is there); every row names a
// site that still signs (a moved site updates its row); and each row says
// exactly one of journaled, exempt (with a reason) or pending (with who).
func TestEveryEventRosterSignsIsJournaledOrAnAllowedException(t *testing.T) {
	files, _ := parsed(t)
	found := signingSites(files)
	var keys []site
	for s := range found {
		keys = append(keys, s)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].File+keys[i].Func < keys[j].File+keys[j].Func })
	for _, s := range keys {
		a, ok := allowedSites[s]
		if !ok {
			t.Errorf("%s (%s) signs an event and is not in allowedSites: keep the event in the journal before sending it (journal/track.Begin) and list the site as Journaled, or list why it is not", s.File, s.Func)
			continue
		}
		for _, st := range a.Journaled {
			if !calls(files, st.File, st.Func, st.Calls) {
				t.Errorf("%s (%s) is listed as journaled, but %s (%s) does not call %s", s.File, s.Func, st.File, st.Func, st.Calls)
			}
		}
	}
	for s, a := range allowedSites {
		if found[s] == 0 {
			t.Errorf("allowedSites lists %s (%s), which signs nothing now: update the row", s.File, s.Func)
		}
		n := 0
		for _, set := range []bool{len(a.Journaled) > 0, a.Exempt != "", a.Pending != ""} {
			if set {
				n++
			}
		}
		if n != 1 {
			t.Errorf("allowedSites row %s (%s) must be exactly one of journaled, exempt or pending", s.File, s.Func)
		}
	}
}

// The scanner's own cases, so a loosened one is caught: a SignEvent call,
// SignEvent taken as a function value, an event's Sign(sk) and a Sign(ctx,
// evt) field call sign; big.Int's Sign() does not.
func TestTheScannerFindsEverySigningForm(t *testing.T) {
	const src = `package x
func a() { s.SignEvent(ctx, evt) }
func b() { in := Input{Sign: s.SignEvent}; _ = in }
func c() { _ = evt.Sign(sk) }
func d() { _ = in.Sign(ctx, evt) }
func e() { _ = k.Sign() > 0 }
`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		ast.Inspect(fd, func(n ast.Node) bool {
			if n != nil && signs(n) {
				got[fd.Name.Name] = true
			}
			return true
		})
	}
	for name, want := range map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": false} {
		if got[name] != want {
			t.Errorf("func %s: signs=%v, want %v", name, got[name], want)
		}
	}
}
