package suggest

import "strings"

// A Block is prose with commands in it, such as an advisory warning: each
// part is text or a command, and the commands are rendered in place with
// the user's selectors.
type Block []Part

// Part is a piece of a Block: Text, a Command when Command is set, or a
// person when Person is set.
type Part struct {
	Text    string
	Command *Command
	Person  Person
}

// Say is a text part.
func Say(text string) Part { return Part{Text: text} }

// Run is a command part.
func Run(c Command) Part { return Part{Command: &c} }

// Render is the block as people read it.
func (b Block) Render(sel Selectors) string {
	var s strings.Builder
	for _, p := range b {
		switch {
		case p.Command != nil:
			s.WriteString(sel.Render(*p.Command))
		case p.Person != "":
			s.WriteString(sel.name(p.Person))
		default:
			s.WriteString(p.Text)
		}
	}
	return s.String()
}

// name is how sel names a person.
func (s Selectors) name(p Person) string {
	if s.Name != nil {
		return s.Name(string(p))
	}
	return string(p)
}

// Closing is the command the block ends with, nil when it ends in text.
func (b Block) Closing() *Command {
	if len(b) == 0 || b[len(b)-1].Command == nil {
		return nil
	}
	return b[len(b)-1].Command
}
