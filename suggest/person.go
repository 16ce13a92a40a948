package suggest

import (
	"fmt"
	"strings"
)

// A Person is someone a message or a command's comment names: their npub.
// Commands, coordinates, JSON and a message's plain text (Block.String)
// carry the npub itself; the human renderer names the person
// (Selectors.Name: "alice (npub1…)"). Rules put people into what they write
// as values (Who, Sayf), so nothing ever looks for npubs in prose.
type Person string

func (p Person) String() string { return string(p) }

// Who is a part naming one person, given as npub.
func Who(npub string) Part { return Part{Person: Person(npub)} }

// People is a block naming each person (npubs), sep between them.
func People(npubs []string, sep string) Block {
	var b Block
	for i, n := range npubs {
		if i > 0 {
			b = append(b, Say(sep))
		}
		b = append(b, Who(n))
	}
	return b
}

// Text is a block of text alone.
func Text(s string) Block {
	if s == "" {
		return nil
	}
	return Block{Say(s)}
}

// Sayf is fmt.Sprintf as a block: an argument that is a Person, a Part or a
// Block stays what it is (a person, a command), every other argument is
// formatted by its verb. Only plain verbs are understood (flags, width and
// precision included; no explicit argument indexes).
func Sayf(format string, args ...any) Block {
	var b Block
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			b = append(b, Say(text.String()))
			text.Reset()
		}
	}
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			text.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			text.WriteString(format[i:])
			break
		}
		verb := format[i : j+1]
		i = j
		if format[j] == '%' {
			text.WriteByte('%')
			continue
		}
		if n >= len(args) {
			text.WriteString("%!" + string(format[j]) + "(MISSING)")
			continue
		}
		arg := args[n]
		n++
		switch v := arg.(type) {
		case Person:
			flush()
			b = append(b, Part{Person: v})
		case Part:
			flush()
			b = append(b, v)
		case Block:
			flush()
			b = append(b, v...)
		default:
			text.WriteString(fmt.Sprintf(verb, arg))
		}
	}
	flush()
	return b
}

// String is the block's plain text: people as npubs, commands without
// selectors.
func (b Block) String() string { return b.Render(Selectors{}) }

// Join joins blocks with sep between them.
func Join(bs []Block, sep string) Block {
	var out Block
	for i, b := range bs {
		if i > 0 && sep != "" {
			out = append(out, Say(sep))
		}
		out = append(out, b...)
	}
	return out
}

// TrimPrefix is b without prefix at the start of its first text part, and
// whether it had it.
func (b Block) TrimPrefix(prefix string) (Block, bool) {
	if len(b) == 0 || b[0].Command != nil || b[0].Person != "" || !strings.HasPrefix(b[0].Text, prefix) {
		return b, false
	}
	out := append(Block{Say(strings.TrimPrefix(b[0].Text, prefix))}, b[1:]...)
	return out, true
}

// HasPrefix reports whether b's text starts with prefix.
func (b Block) HasPrefix(prefix string) bool {
	_, ok := b.TrimPrefix(prefix)
	return ok
}
