package preflight

import (
	"slices"

	"github.com/nbd-wtf/go-nostr"

	"github.com/roster-cli/roster/graph"
)

// MetadataEdit is `repo edit --name/--description/--web/--clone/--relays/
// --hashtag`: the fields of the author's own announcement to replace. A nil
// field is left as it is; an empty list clears a multi-value field (the tag
// stays, empty, as ngit writes it) or removes every hashtag.
type MetadataEdit struct {
	Name, Description *string
	Web, Clone        []string
	Relays, Hashtags  []string
	// Set records which list fields were given (a nil list is "not given").
	SetWeb, SetClone, SetRelays, SetHashtags bool
}

// Empty reports an edit that names no field.
func (m *MetadataEdit) Empty() bool {
	return m == nil || m.Name == nil && m.Description == nil && !m.SetWeb && !m.SetClone && !m.SetRelays && !m.SetHashtags
}

// flags are the edit as repo edit's flags, in the order --help lists them.
func (m *MetadataEdit) flags() []string {
	if m == nil {
		return nil
	}
	var w []string
	if m.Name != nil {
		w = append(w, "--name", *m.Name)
	}
	if m.Description != nil {
		w = append(w, "--description", *m.Description)
	}
	for _, f := range []struct {
		set    bool
		flag   string
		values []string
	}{{m.SetWeb, "--web", m.Web}, {m.SetClone, "--clone", m.Clone}, {m.SetRelays, "--relays", m.Relays}, {m.SetHashtags, "--hashtag", m.Hashtags}} {
		if !f.set {
			continue
		}
		if len(f.values) == 0 {
			w = append(w, f.flag, "")
		}
		for _, v := range f.values {
			w = append(w, f.flag, v)
		}
	}
	return w
}

// FieldChange is one announcement field a metadata edit replaces: its tags
// before and after (each empty when there was or will be none).
type FieldChange struct {
	Field         string
	Before, After nostr.Tags
}

// buildMetadata replaces the named fields of the author's announcement and
// nothing else: every other tag keeps its bytes and place, a field that was
// absent is inserted where ngit's order puts it (graph.InsertInNgitOrder).
// name also rewrites an `alt` that is ngit's "git repository: <old name>"
// (ngit derives it from the name); any other alt is the author's and kept.
func buildMetadata(d *draft, m *MetadataEdit) []FieldChange {
	var out []FieldChange
	if m.Name != nil {
		old := ""
		if t := firstTag(d.tags, "name"); t != nil && len(t) > 1 {
			old = t[1]
		}
		out = append(out, d.replaceField("name", nostr.Tags{{"name", *m.Name}}))
		if t := firstTag(d.tags, "alt"); t != nil && len(t) == 2 && t[1] == "git repository: "+old {
			out = append(out, d.replaceField("alt", nostr.Tags{{"alt", "git repository: " + *m.Name}}))
		}
	}
	if m.Description != nil {
		out = append(out, d.replaceField("description", nostr.Tags{{"description", *m.Description}}))
	}
	for _, f := range []struct {
		set    bool
		name   string
		values []string
	}{{m.SetClone, "clone", m.Clone}, {m.SetWeb, "web", m.Web}, {m.SetRelays, "relays", m.Relays}} {
		if f.set {
			out = append(out, d.replaceField(f.name, nostr.Tags{append(nostr.Tag{f.name}, f.values...)}))
		}
	}
	if m.SetHashtags {
		var ts nostr.Tags
		for _, h := range m.Hashtags {
			ts = append(ts, nostr.Tag{"t", h})
		}
		out = append(out, d.replaceField("t", ts))
	}
	// A field given its current value is no change.
	return slices.DeleteFunc(out, func(c FieldChange) bool { return slices.EqualFunc(c.Before, c.After, slices.Equal) })
}

// replaceField puts with in place of every tag named name: at the first
// one's position, or where ngit's order puts them when there was none.
func (d *draft) replaceField(name string, with nostr.Tags) FieldChange {
	c := FieldChange{Field: name, After: copyTags(with)}
	at := -1
	var kept nostr.Tags
	for _, t := range d.tags {
		if len(t) > 0 && t[0] == name {
			if at < 0 {
				at = len(kept)
			}
			c.Before = append(c.Before, slices.Clone(t))
			continue
		}
		kept = append(kept, t)
	}
	if at >= 0 {
		d.tags = slices.Insert(kept, at, with...)
		return c
	}
	d.tags = kept
	for _, t := range with {
		d.tags = graph.InsertInNgitOrder(d.tags, t)
	}
	return c
}

func firstTag(tags nostr.Tags, name string) nostr.Tag {
	for _, t := range tags {
		if len(t) > 0 && t[0] == name {
			return t
		}
	}
	return nil
}
