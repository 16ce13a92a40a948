package cmdutil

import (
	"github.com/nbd-wtf/go-nostr"
)

func NostrNow(a *Factory) nostr.Timestamp { return nostr.Timestamp(a.Io.Now().Unix()) }
