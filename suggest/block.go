package suggest

import "strings"

// A Block is prose with commands in it, such as an advisory warning: each
// part is text or a command, and the commands are rendered in place with
// the user's selectors.
type Block []Part

// Part is a piece of a Block: Text, or a Command when Command is set.
type Part struct {
	Text    string
	Command *Command
}

// Say is a text part.
func Say(text string) Part { return Part{Text: text} }

// Run is a command part.
func Run(c Command) Part { return Part{Command: &c} }

// Render is the block as people read it.
func (b Block) Render(sel Selectors) string {
	var s strings.Builder
	for _, p := range b {
		if p.Command != nil {
			s.WriteString(sel.Render(*p.Command))
		} else {
			s.WriteString(p.Text)
		}
	}
	return s.String()
}

// Closing is the command the block ends with, nil when it ends in text.
func (b Block) Closing() *Command {
	if len(b) == 0 || b[len(b)-1].Command == nil {
		return nil
	}
	return b[len(b)-1].Command
}
