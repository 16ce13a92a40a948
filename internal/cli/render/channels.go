package render

import (
	"context"
	"slices"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/termtext"
	"github.com/roster-cli/roster/workspace/groups"
)

// ChannelText names NIP-29 channels (group ids) in human output the way
// PeopleText names people: "#name (d3e0…0001)" where the group's
// relay-signed metadata (kind 39000) is known, the id shortened on a
// terminal and whole in a pipe; the id alone where no relay signed a name.
// A name is the relay's text: escaped to one line.
type ChannelText struct {
	names map[string]string
	short bool
}

// ChannelsShown reads the names of channels ids hosted on relays: the
// cache first, then, unless --offline, one request per relay for the rest.
// With --json nothing is read (JSON carries the ids).
func ChannelsShown(a *cmdutil.Factory, ctx context.Context, relays []string, ids ...string) ChannelText {
	ct := ChannelText{names: map[string]string{}, short: a.Io.OutTTY && !a.Full}
	relays = slices.DeleteFunc(slices.Clone(relays), func(r string) bool { return r == "" })
	if a.Opts.JSON || len(ids) == 0 || len(relays) == 0 {
		return ct
	}
	missing := map[string]bool{}
	for _, id := range ids {
		missing[id] = true
	}
	if store, err := a.Store(""); err == nil {
		for _, r := range relays {
			for id := range missing {
				if st, ok := groups.Cached(store, r, id); ok && st.Metadata != nil && st.Metadata.Name != "" {
					ct.names[id] = st.Metadata.Name
					delete(missing, id)
				}
			}
		}
		store.C.Close()
	}
	if len(missing) == 0 || a.Opts.Offline {
		return ct
	}
	src, done := a.RepoSource(relays, nil, cmdutil.SourceOptions{})
	defer done()
	pool := src.Pool()
	defer pool.Close()
	for _, rl := range groups.List(ctx, pool, relays).Relays {
		for _, g := range rl.Groups {
			if missing[g.ID] && g.Metadata != nil && g.Metadata.Name != "" {
				ct.names[g.ID] = g.Metadata.Name
				delete(missing, g.ID)
			}
		}
	}
	return ct
}

// Of names one channel.
func (ct ChannelText) Of(id string) string {
	shown := termtext.Line(id)
	if ct.short && len(id) > 12 {
		shown = termtext.Line(id[:4]) + "…" + termtext.Line(id[len(id)-4:])
	}
	name, ok := ct.names[id]
	if !ok {
		return termtext.Line(id)
	}
	return "#" + termtext.Line(name) + " (" + shown + ")"
}
