package sections

import (
	"crypto/rand"
	"encoding/json"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/roster-cli/roster/workspace/strictjson"
)

// Body is the content of one command kind.
type Body interface {
	Kind() int
	Action() string // content action_id
	// Subject is the actor_pubkey the actor tag must repeat ("" when the
	// command has no actor tag).
	Subject() string
	Validate() error
}

func (c *Import) Kind() int              { return KindImport }
func (c *Grant) Kind() int               { return KindGrant }
func (c *Revoke) Kind() int              { return KindRevoke }
func (c *Move) Kind() int                { return KindMove }
func (c *ManageSection) Kind() int       { return KindManage }
func (c *ManageReorder) Kind() int       { return KindManage }
func (c *ManageRemove) Kind() int        { return KindManage }
func (c *Import) Action() string         { return c.ActionID }
func (c *Grant) Action() string          { return c.ActionID }
func (c *Revoke) Action() string         { return c.ActionID }
func (c *Move) Action() string           { return c.ActionID }
func (c *ManageSection) Action() string  { return c.ActionID }
func (c *ManageReorder) Action() string  { return c.ActionID }
func (c *ManageRemove) Action() string   { return c.ActionID }
func (c *Import) Subject() string        { return "" }
func (c *Grant) Subject() string         { return c.ActorPubkey }
func (c *Revoke) Subject() string        { return c.ActorPubkey }
func (c *Move) Subject() string          { return "" }
func (c *ManageSection) Subject() string { return "" }
func (c *ManageReorder) Subject() string { return "" }
func (c *ManageRemove) Subject() string  { return "" }

// Command is a parsed, statically valid command event.
type Command struct {
	Kind   int
	Owner  string // the single p tag
	Signer string // evt.PubKey: the actor who signed
	// Subject is the actor tag of a grant or revoke (the grantee).
	Subject   string
	ActionID  string
	Canonical []byte // canonical content bytes
	Hash      string // SHA-256 of Canonical: the durable action row's command hash
	Body      Body
	Event     *nostr.Event
}

// NewActionID returns a random lowercase version-4 UUID.
func NewActionID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("action id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// CommandEvent builds the unsigned event for body in owner's workspace after
// validating it, so roster never signs a command the relay must reject on
// shape. The content is the canonical JSON of body.
func CommandEvent(owner string, body Body, createdAt nostr.Timestamp) (*nostr.Event, error) {
	if err := checkHex64("owner", owner); err != nil {
		return nil, err
	}
	if err := body.Validate(); err != nil {
		return nil, err
	}
	content, err := strictjson.Canonical(body)
	if err != nil {
		return nil, err
	}
	tags := nostr.Tags{{"p", owner}}
	if s := body.Subject(); s != "" {
		tags = append(tags, nostr.Tag{"actor", s})
	}
	tags = append(tags, nostr.Tag{"action", body.Action()})
	return &nostr.Event{Kind: body.Kind(), CreatedAt: createdAt, Tags: tags, Content: string(content)}, nil
}

// ParseCommand checks a command event's tag grammar and strictly decodes and
// validates its content. Authorization (who may sign it) and stateful rules
// are the relay's; signature checks are the caller's.
func ParseCommand(evt *nostr.Event) (*Command, error) {
	needsActor := evt.Kind == KindGrant || evt.Kind == KindRevoke
	if _, ok := ActionForKind(evt.Kind); !ok {
		return nil, ruleErr("kind", "kind %d is not a NIP-SW command", evt.Kind)
	}
	var owner, actor, action string
	var nP, nActor, nAction int
	for _, tag := range evt.Tags {
		if len(tag) == 0 {
			return nil, ruleErr("tag-grammar", "empty tag")
		}
		switch tag[0] {
		case "p":
			nP++
			if len(tag) == 2 {
				owner = tag[1]
			}
		case "actor":
			nActor++
			if len(tag) == 2 {
				actor = tag[1]
			}
		case "action":
			nAction++
			if len(tag) == 2 {
				action = tag[1]
			}
		default:
			return nil, ruleErr("tag-grammar", "unexpected %q tag; a command carries only p, action and (grant, revoke) actor", tag[0])
		}
		if len(tag) != 2 {
			return nil, ruleErr("tag-grammar", "%q tag must have exactly one value", tag[0])
		}
	}
	if nP != 1 {
		return nil, ruleErr("tag-p", "command needs exactly one p tag naming the owner, has %d", nP)
	}
	if err := checkHex64("p tag owner", owner); err != nil {
		return nil, err
	}
	if nAction != 1 {
		return nil, ruleErr("tag-action", "command needs exactly one action tag, has %d", nAction)
	}
	if needsActor && nActor != 1 {
		return nil, ruleErr("tag-actor", "kind %d needs exactly one actor tag, has %d", evt.Kind, nActor)
	}
	if !needsActor && nActor != 0 {
		return nil, ruleErr("tag-actor", "kind %d carries no actor tag", evt.Kind)
	}
	body, err := DecodeBody(evt.Kind, []byte(evt.Content))
	if err != nil {
		return nil, err
	}
	canonical, err := strictjson.CanonicalizeRaw([]byte(evt.Content))
	if err != nil {
		return nil, ruleErr("content", "%v", err)
	}
	if body.Action() != action {
		return nil, ruleErr("tag-action", "action tag %q does not match content action_id %q", action, body.Action())
	}
	if needsActor {
		if body.Subject() != actor {
			return nil, ruleErr("tag-actor", "actor tag %q does not match content actor_pubkey %q", actor, body.Subject())
		}
		if actor == owner {
			return nil, ruleErr("actor-is-owner", "the owner's authority is implicit; it cannot be granted or revoked")
		}
	}
	return &Command{
		Kind: evt.Kind, Owner: owner, Signer: evt.PubKey, Subject: actor, ActionID: action,
		Canonical: canonical, Hash: strictjson.SHA256Hex(canonical), Body: body, Event: evt,
	}, nil
}

// DecodeBody strictly decodes content of kind into its typed body, rejects
// any version but 1, then validates. Nothing is canonicalized before this.
func DecodeBody(kind int, content []byte) (Body, error) {
	var body Body
	switch kind {
	case KindImport:
		body = &Import{}
	case KindGrant:
		body = &Grant{}
	case KindRevoke:
		body = &Revoke{}
	case KindMove:
		body = &Move{}
	case KindManage:
		var head map[string]json.RawMessage
		if err := strictjson.DecodeStrict(content, &head); err != nil {
			return nil, ruleErr("content", "%v", err)
		}
		var op ManageOp
		if err := json.Unmarshal(head["op"], &op); err != nil {
			return nil, ruleErr("manage-op", "content has no string op")
		}
		switch op {
		case OpAdd, OpRename:
			body = &ManageSection{}
		case OpReorder:
			body = &ManageReorder{}
		case OpRemove:
			body = &ManageRemove{}
		default:
			return nil, ruleErr("manage-op", "op %q is not add, rename, reorder or remove", op)
		}
	default:
		return nil, ruleErr("kind", "kind %d is not a NIP-SW command", kind)
	}
	if err := strictjson.DecodeStrict(content, body); err != nil {
		return nil, ruleErr("content", "%v", err)
	}
	if err := body.Validate(); err != nil {
		return nil, err
	}
	return body, nil
}
