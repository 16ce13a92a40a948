package clitest

import (
	"testing"

	"github.com/roster-cli/roster/internal/cli/render"
)

func DemoNpubOf(t *testing.T, sk string) string { return render.WsPerson(PubOf(t, sk), "").Npub }
