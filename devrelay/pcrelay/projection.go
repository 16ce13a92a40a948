package pcrelay

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/devrelay"
	"github.com/roster-cli/roster/workspace/projects"
)

// stateContent is the version 1 Project State content, fields in the order
// nip-pc.md prints them.
type stateContent struct {
	V           int        `json:"v"`
	Deleted     bool       `json:"deleted"`
	ProjectTags [][]string `json:"project_tags"`
}

// project signs the kind 30623 Project State of r and records its created_at
// in r: max(now, previous + 1), so every projection replaces the last.
func (a *Authority) project(env devrelay.Env, r *row) (*nostr.Event, error) {
	at, err := r.nextProjectionTime(env.Now())
	if err != nil {
		return nil, err
	}
	body := stateContent{V: 1, Deleted: r.deleted, ProjectTags: [][]string{}}
	if !r.deleted {
		doc := r.doc
		doc.RelatedChannels = r.related
		body.ProjectTags = doc.Tags()
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // tag bytes are carried verbatim
	if err := enc.Encode(body); err != nil {
		return nil, fmt.Errorf("error: encoding project state: %w", err)
	}
	evt := &nostr.Event{
		Kind:      projects.KindState,
		CreatedAt: at,
		Tags: nostr.Tags{
			{"d", r.coord.Address()},
			{"a", r.coord.String()},
			{"rev", projects.FormatRevision(r.revision)},
			{"e", r.identity.ID, "", "identity"},
			{"e", r.change, "", "change"},
		},
		Content: string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))),
	}
	if err := env.Sign(evt); err != nil {
		return nil, fmt.Errorf("error: signing project state: %w", err)
	}
	r.projected, r.published = at, evt.ID
	return evt, nil
}
