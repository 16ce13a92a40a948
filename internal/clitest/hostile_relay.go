package clitest

import (
	"testing"

	"github.com/roster-cli/roster/devrelay"
)

// HostileWorld is a mutWorld whose relays misbehave as m says.
func HostileWorld(t *testing.T, n int, m devrelay.Misbehaviour) *MutWorld {
	t.Helper()
	return &MutWorld{T: t, Relays: devrelay.StartN(t, n, devrelay.Options{Misbehave: m}), Id: "my-repo", Home: TestEnv(t), Dir: t.TempDir()}
}
