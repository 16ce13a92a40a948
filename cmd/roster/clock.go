package main

import (
	"github.com/nbd-wtf/go-nostr"
)

func nostrNow(a *app) nostr.Timestamp { return nostr.Timestamp(a.io.Now().Unix()) }
