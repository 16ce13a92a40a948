package clitest

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// RemovalDone is a lead-shaped repository after alice removed carol, with
// the maintainers' part done: bob's announcement records carol's tenure
// (follow-lead), and only carol's own stale announcement still lists her.
func RemovalDone(t *testing.T, bobAcknowledged bool) []*nostr.Event {
	bobRoles := []nostr.Tag{Role("M", Alice, "200"), Role("m", Bob, "200")}
	if bobAcknowledged {
		bobRoles = append(bobRoles, Role("m", Carol, "300", "400"))
	} else {
		bobRoles = append(bobRoles, Role("m", Carol, "300")) // his copy from before the removal
	}
	return []*nostr.Event{
		Alice.Announce(t, "proj", 1000, Role("M", Alice), Role("m", Bob, "200"), Role("m", Carol, "300", "400"), MaintainersTag(Alice, Bob)),
		Bob.Announce(t, "proj", 1001, append(bobRoles, MaintainersTag(Alice, Bob))...),
		Carol.Announce(t, "proj", 1002, Role("M", Alice, "300"), Role("m", Carol, "300"), MaintainersTag(Alice, Carol)),
	}
}
