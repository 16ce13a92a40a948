//go:build tools

// Package tools pins the modules DESIGN.md lists until the packages that use
// them import them; it is never built.
package tools

import (
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/fiatjaf/eventstore/slicestore"
	_ "github.com/fiatjaf/khatru"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/nbd-wtf/go-nostr"
	_ "github.com/nbd-wtf/go-nostr/nip19"
	_ "github.com/nbd-wtf/go-nostr/nip44"
	_ "github.com/nbd-wtf/go-nostr/nip46"
	_ "github.com/nbd-wtf/go-nostr/nip49"
	_ "github.com/spf13/cobra"
	_ "github.com/zalando/go-keyring"
	_ "go.etcd.io/bbolt"
	_ "gopkg.in/yaml.v3"
)
