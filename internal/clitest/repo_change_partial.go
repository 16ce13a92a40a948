package clitest

import "testing"

// ForcedAddScene: Bob acknowledges Alice and his newer state differs, so
// Alice's add needs --force from her checkout.
func ForcedAddScene(t *testing.T) *JoinScene {
	s := NewJoinScene(t)
	s.W.Seed(Bob.Announce(t, s.W.Id, 200, Role("M", Alice, "200"), Role("m", Bob, "200"), MaintainersTag(Alice, Bob)), Bob.State(t, s.W.Id, 300, s.MainB))
	s.W.Dir = s.Alice.Dir
	return s
}
